// Door of the model layer: the model and message types, one StreamFn for every wire API (the provider table), the
// model catalog and registry (models.json, keys), cost, and the helpers the session layer needs (overflow, conversion).
export { missingApiKeyMessage, OPTION_WORDING, type OptionWording } from "./api-keys.js";
export { apiProvider, isContextOverflow, isRecord, knownApis, registerApi, runProviderStream, warmUpFetch, type ApiProvider } from "./providers/index.js";
export { AttachmentError, attachmentBlock, attachmentPath, readAttachment, splitAttachedBlocks, type AttachedBlock, type Attachment } from "./attach-file.js";
export { attachMentions, attachedFiles, type AttachedPrompt, type ImageTarget } from "./attach-mentions.js";
export { EventStream } from "./event-stream.js";
export { messageSearch, sourceLines } from "./web-sources.js";
export {
	THINKING_LEVELS,
	type AssistantMessage,
	type AssistantMessageEvent,
	type AssistantMessageEventStream,
	type ServerBlock,
	type WebSearchRecord,
	type WebSource,
	type Context,
	type ImageContent,
	type Message,
	type Model,
	type OutputSchema,
	type RetryInfo,
	type StreamFn,
	type StreamOptions,
	type TextContent,
	type ThinkingLevel,
	type Tool,
	type ToolCall,
	type ToolResultMessage,
	type Usage,
	type UserMessage,
} from "./llm-types.js";
export { ANSWER_PARTS, TOOL_RESULT_PARTS, contentPartProblem, contentProblem, toolResultProblem, type ContentPartKind } from "./content-parts.js";
export {
	answerText,
	calculateCost,
	createAssistantMessageEventStream,
	emptyAssistantMessage,
	emptyUsage,
	errorAssistantMessage,
	inlinedFile,
	textFromContent,
	userMessage,
	type PromptOptions,
} from "./messages.js";
export { BUILTIN_MODELS, BUILTIN_PROVIDERS, placeholderModel } from "./models-catalog.js";
export {
	authFilePath,
	authFileSecrets,
	createPkce,
	freshPlanLogin,
	listenForCode,
	isPlanProvider,
	loginChoices,
	loginProblem,
	planTitle,
	randomState,
	SIGN_IN_TIMEOUT_MS,
	readAuthFile,
	REFRESH_MARGIN_MS,
	signIn,
	signOut,
	updateAuthFile,
	type AuthFile,
	type LoginChoice,
	type LoginInstructions,
	type LoginIo,
	type LoginMethod,
	type McpServerLogin,
	type PlanLogin,
} from "./logins/index.js";
export { ModelRegistry, loadModelRegistry, parseModelsJson, type ModelListing } from "./models/index.js";
export { preloadModelSdk, streamModel } from "./stream-model.js";
export {
	NO_RESULT_TEXT,
	normalizeAnthropicToolCallId,
	normalizeOpenAIToolCallId,
	transformMessages,
} from "./transform-messages.js";
export { pairToolResults } from "./tool-pairs.js";
