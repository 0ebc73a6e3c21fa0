// Public entry of the model providers: one StreamFn for every supported API, the model catalog and
// registry (models.json, keys), cost, and the helpers the session layer needs (overflow, conversion).
export { streamModel } from "./stream-model.js";
export { type ApiProvider, apiProvider, knownApis, registerApi } from "./api-registry.js";
export { streamAnthropicMessages } from "./anthropic-messages.js";
export { streamOpenAICompletions } from "./openai-completions.js";
export { runProviderStream } from "./provider-run.js";
export { calculateCost, emptyUsage } from "./usage.js";
export { isContextOverflow } from "./context-overflow.js";
export { redactSecrets } from "../text/secret-mask.js";
export {
	transformMessages,
	normalizeAnthropicToolCallId,
	normalizeOpenAIToolCallId,
	NO_RESULT_TEXT,
} from "./transform-messages.js";
export { API_KEY_OPTION } from "./api-keys.js";
export { BUILTIN_MODELS, placeholderModel } from "./models-catalog.js";
export { ModelRegistry, loadModelRegistry } from "./model-registry.js";
export { parseModelsJson } from "./models-json.js";
