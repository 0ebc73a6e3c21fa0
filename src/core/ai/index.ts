// Public entry of the model providers: one StreamFn for every supported API, the model catalog and
// registry (models.json, keys), cost, and the helpers the session layer needs (overflow, conversion).
export { streamModel } from "./stream-model.js";
export { type ApiProvider, apiProvider, knownApis, registerApi } from "./api-registry.js";
export { streamAnthropicMessages } from "./providers/anthropic-messages.js";
export { streamOpenAICompletions } from "./providers/openai-completions.js";
export { runProviderStream } from "./providers/provider-run.js";
export { calculateCost, emptyUsage } from "./usage.js";
export { isContextOverflow } from "./context-overflow.js";
export { redactSecrets } from "../lib/text/secret-mask.js";
export {
	transformMessages,
	normalizeAnthropicToolCallId,
	normalizeOpenAIToolCallId,
	NO_RESULT_TEXT,
} from "./transform-messages.js";
export { API_KEY_OPTION } from "./api-keys.js";
export { BUILTIN_MODELS, placeholderModel } from "./models-catalog.js";
export { ModelRegistry, loadModelRegistry } from "./models/model-registry.js";
export { parseModelsJson } from "./models/models-json.js";
