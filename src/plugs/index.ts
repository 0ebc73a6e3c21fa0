// Door of the plugs: what a session is assembled from besides the built-in tools, each installed by one function.
export { installCheckpoints, pruneCheckpoints } from "./checkpoints/index.js";
export { exportSessionFile, installExport } from "./export/index.js";
export {
	NamedExtensionsError,
	installExtensions,
	type ExtensionAPI,
	type ExtensionCommand,
	type ExtensionContext,
	type ExtensionFactory,
	type ExtensionFailure,
	type ExtensionsReport,
	type KnownToolInputs,
	type SendMessageOptions,
	type SessionEventHandler,
	type SessionEventType,
	type ToolCallEvent,
	type ToolCallEventResult,
	type ToolCallHandler,
	type ToolResultEvent,
	type ToolResultEventResult,
	type ToolResultHandler,
} from "./extensions/index.js";
export { LanguageServers, installLsp, runLspQuery, type LanguageServerSetting, type LspQuery, type LspSettings } from "./lsp/index.js";
export { McpConfigError, configuredMcpCredentials, installMcp } from "./mcp/index.js";
export { RuleError, configuredKeys, installApprovalPolicy, secretMask } from "./policy/index.js";
export { installResources } from "./resources/index.js";
