// Door of plugs/extensions.
export type {
	ExtensionAPI,
	ExtensionCommand,
	ExtensionContext,
	ExtensionFactory,
	KnownToolInputs,
	SendMessageOptions,
	SessionEventHandler,
	SessionEventType,
	ToolCallEvent,
	ToolCallEventResult,
	ToolCallHandler,
	ToolResultEvent,
	ToolResultEventResult,
	ToolResultHandler,
} from "./extension-api.js";
export {
	NamedExtensionsError,
	installExtensions,
	type ExtensionFailure,
	type ExtensionsReport,
} from "./install-extensions.js";
