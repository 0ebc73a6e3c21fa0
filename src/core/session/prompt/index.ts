// Door of the system prompt: loom's own, the user's additions and the project's context files.
export { ancestorsFromRoot, loadContextFiles } from "./context-files.js";
export { buildSystemPrompt, type PromptParts, type PromptSkill } from "./system-prompt.js";
