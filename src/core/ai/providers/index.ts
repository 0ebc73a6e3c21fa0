// Door of the providers: one stream function per wire API, and the run, retry and partial-message machinery they share.
export { streamAnthropicMessages } from "./anthropic-messages.js";
export { ANTHROPIC_THINKING } from "./anthropic-request.js";
export { isRecord } from "./event-shape.js";
export { isContextOverflow } from "./provider-error.js";
export { streamGoogleGenerativeAi } from "./google-generative-ai.js";
export { GOOGLE_THINKING } from "./google-request.js";
export { streamOpenAICompletions } from "./openai-completions.js";
export { OPENAI_REASONING_EFFORT } from "./openai-request.js";
export { OPENAI_RESPONSES_REASONING } from "./openai-responses-request.js";
export { streamOpenAIResponses } from "./openai-responses.js";
export { runProviderStream, type ProviderStreamOptions } from "./provider-run.js";
