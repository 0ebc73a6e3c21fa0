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
	capLines,
	compactArgs,
	errorLines,
	findTool,
	lastLines,
	oneLine,
	tailLines,
	toolFileEffects,
	toolPromptGuide,
	toolResultLines,
	toolSummary,
	type LineStyle,
	type NamedToolPresentation,
	type StyledLine,
	type ToolDefinition,
	type ToolFileEffects,
	type ToolPresentation,
	type ToolRowState,
} from "./tool-definition.js";
export { applyAfterToolCall, createErrorToolResult } from "./tool-execution.js";
export {
	MAX_TOOL_NAME_LENGTH,
	TOOL_NAME_RULE,
	isValidToolName,
	matchesToolPattern,
	toolNameCharacters,
	toolNamePattern,
} from "./tool-name-pattern.js";
export { checkableSchema, isTypeBoxSchema } from "./json-schema-to-typebox.js";
export { validateToolArguments } from "./validate-tool-arguments.js";
