// Door of the extension host: loading a user's and a project's extensions into a session, and the API they write against.
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
