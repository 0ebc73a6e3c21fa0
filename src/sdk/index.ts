// The package's entry (`import { createAgentSession, SessionManager } from "loom"`): everything needed to run a
// session from code and to write extensions. Loads neither the interactive screen (Ink, React) nor a provider's
// SDK until a request needs it.

export { createAgentSession, type CreateAgentSessionOptions, type CreateAgentSessionResult } from "./create-agent-session.js";
export { SessionManager } from "./session-manager.js";
export { SessionOptionError } from "./session-option-error.js";
export { McpConfigError } from "../plugs/index.js";
export type { ModelOptions } from "./model-option.js";
export type { ToolChoice } from "./tool-catalog.js";

export {
	Agent,
	type AgentEvent,
	type AgentMessage,
	type AgentTool,
	type AgentToolResult,
	type AgentToolUpdateCallback,
	type AfterToolCallContext,
	type AfterToolCallResult,
	type AssistantMessage,
	type BeforeToolCallContext,
	type BeforeToolCallResult,
	type ImageContent,
	type Model,
	type TextContent,
	type ThinkingLevel,
	type ToolDefinition,
	type ToolExecutionMode,
	type ToolResultMessage,
	type UserMessage,
	createErrorToolResult,
} from "../core/index.js";
export {
	AgentSession,
	type CommandContext,
	type NoticeLevel,
	ProjectTrustGate,
	type RunOutcome,
	type SessionEvent,
	type SessionListener,
	type SessionUi,
	type Settings,
} from "../core/index.js";
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
} from "../plugs/index.js";
export type { ExtensionFailure, ExtensionsReport } from "../plugs/index.js";
export {
	BUILTIN_TOOLS,
	type BashToolInput,
	type EditToolInput,
	type FindToolInput,
	type GrepToolInput,
	type LsToolInput,
	type ReadToolInput,
	type WriteToolInput,
	createBashTool,
	createBuiltinTools,
	createCodingTools,
	createEditTool,
	createFindTool,
	createGrepTool,
	createLsTool,
	createReadTool,
	createWriteTool,
} from "../tools/index.js";
export { type Static, type TSchema, Type } from "@sinclair/typebox";

// What the loom command builds on beside the public API: its flags name the key option, it lists models as a
// session would choose them, and where nobody can be asked it reports on stderr.
export { assembleAgentSession } from "./create-agent-session.js";
export { chooseModel, namedModelChoice } from "./model-option.js";
export { stderrUi } from "./create-agent-session.js";
// Plan mode's presented plan, which print mode prints in place of an answer.
export { PRESENT_PLAN_TOOL, presentedPlan } from "../plugs/index.js";
