// Door of the engine: the Agent, the agent loop with its tool-execution phases, and tool definitions (what the seeds specify).
export { agentLoop, agentLoopContinue } from "./agent-loop.js";
export type {
	AfterToolCallContext,
	AfterToolCallResult,
	AgentContext,
	AgentEvent,
	AgentLoopConfig,
	AgentMessage,
	AgentTool,
	AgentToolResult,
	AgentToolUpdateCallback,
	BeforeToolCallContext,
	BeforeToolCallResult,
	ToolExecutionMode,
} from "./agent-types.js";
export { Agent, defaultConvertToLlm, type AgentOptions } from "./agent.js";
export { OrderedDelivery, callInOrder } from "./event-delivery.js";
export {
	MAX_TOOL_NAME_LENGTH,
	TOOL_NAME_RULE,
	capLines,
	compactArgs,
	describeToolCall,
	errorLines,
	findTool,
	isValidToolName,
	lastLines,
	matchesToolPattern,
	oneLine,
	tailLines,
	toolFileEffects,
	toolNameCharacters,
	toolNamePattern,
	toolPromptGuide,
	toolResultLines,
	toolSummary,
	type LineStyle,
	type NamedToolPresentation,
	type StyledLine,
	type ToolCallDescription,
	type ToolDefinition,
	type ToolFileEffects,
	type ToolPresentation,
	type ToolRowState,
	type ToolResultDiagnostics,
} from "./tool-definition.js";
export { applyAfterToolCall, createErrorToolResult, validateToolArguments } from "./tool-execution.js";
export { checkableSchema, isTypeBoxSchema } from "./json-schema-to-typebox.js";
