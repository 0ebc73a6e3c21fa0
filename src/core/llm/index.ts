// Public entry of the model providers: one StreamFn for every supported API, the model catalog and
// registry (models.json, keys), cost, and the helpers the session layer needs (overflow, conversion).
export { preloadModelSdk, streamModel } from "./stream-model.js";
export { type ApiProvider, type BuiltinApi, apiProvider, knownApis, registerApi } from "./api-registry.js";
export { streamAnthropicMessages } from "./anthropic-messages.js";
export { streamOpenAICompletions } from "./openai-completions.js";
export { streamOpenAIResponses } from "./openai-responses.js";
export { streamGoogleGenerativeAi } from "./google-generative-ai.js";
export {
	DEFAULT_IDLE_TIMEOUT_MS,
	type AttemptContext,
	type FinishReason,
	type ProviderAttempt,
	type ProviderStreamOptions,
	runProviderStream,
} from "./provider-run.js";
export { DEFAULT_RETRY, retryDelayMs, type RetrySettings } from "./retry.js";
export { calculateCost, emptyUsage } from "./usage.js";
export { isContextOverflow } from "./context-overflow.js";
export { redactSecrets } from "../text/secret-mask.js";
export { parseToolArguments } from "./partial-message.js";
export {
	transformMessages,
	normalizeAnthropicToolCallId,
	normalizeOpenAIToolCallId,
	NO_RESULT_TEXT,
} from "./transform-messages.js";
export { buildAnthropicParams, anthropicThinkingStyle } from "./anthropic-request.js";
export { buildOpenAIParams } from "./openai-request.js";
export { buildOpenAIResponsesParams } from "./openai-responses-request.js";
export { API_KEY_FLAG, API_KEY_OPTION, envApiKey, missingApiKeyMessage } from "./api-keys.js";
export { closestModels } from "./model-suggestions.js";
export {
	BUILTIN_MODELS,
	BUILTIN_PROVIDERS,
	DEFAULT_MODEL_LIMITS,
	DEFAULT_PROVIDER,
	type BuiltinProvider,
	placeholderModel,
} from "./models-catalog.js";
export { ModelRegistry, loadModelRegistry, type ModelListing, type ModelRequest, type ResolvedModel } from "./model-registry.js";
export { parseModelsJson, readModelsJson, type ModelsJson, type ModelsJsonModel, type ModelsJsonProvider } from "./models-json.js";
