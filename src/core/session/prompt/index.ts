// Door of core/session/prompt.
export { ancestorsFromRoot, loadContextFiles } from "./context-files.js";
export { buildSystemPrompt, type PromptParts, type PromptSkill } from "./system-prompt.js";
