// The agent's tools, loop configuration and event stream.
import type { Static, TSchema } from "@sinclair/typebox";
import type {
	AssistantMessage,
	AssistantMessageEvent,
	ImageContent,
	Message,
	Model,
	StreamOptions,
	TextContent,
	ThinkingLevel,
	Tool,
	ToolCall,
	ToolResultMessage,
} from "../ai/index.js";

/** "sequential": one call at a time; one such tool in a batch makes the whole batch sequential. */
export type ToolExecutionMode = "sequential" | "parallel";

export interface AgentToolResult<TDetails = any> {
	content: (TextContent | ImageContent)[];
	details: TDetails;
	/** Runtime hint: stop after this batch when every result of the batch has it. Never persisted. */
	terminate?: boolean;
}

export type AgentToolUpdateCallback<TDetails = any> = (partialResult: AgentToolResult<TDetails>) => void;

export interface AgentTool<TParameters extends TSchema = TSchema, TDetails = any> extends Tool<TParameters> {
	/** Human-readable name for the UI. */
	label: string;
	executionMode?: ToolExecutionMode;
	/** Normalises raw model arguments (legacy shapes, JSON strings) before validation. */
	prepareArguments?: (args: unknown) => unknown;
	/** Throws on failure; the loop turns the error into an error result the model sees. */
	execute(
		toolCallId: string,
		params: Static<TParameters>,
		signal?: AbortSignal,
		onUpdate?: AgentToolUpdateCallback<TDetails>,
	): Promise<AgentToolResult<TDetails>>;
}

/**
 * App-defined message roles, added by declaration merging:
 * `declare module "./agent-types.js" { interface CustomAgentMessages { note: NoteMessage } }`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: extension point
export interface CustomAgentMessages {}

export type AgentMessage = Message | CustomAgentMessages[keyof CustomAgentMessages];

export interface AgentContext {
	systemPrompt?: string;
	messages: AgentMessage[];
	tools?: AgentTool<any>[];
}

export interface BeforeToolCallContext {
	assistantMessage: AssistantMessage;
	toolCall: ToolCall;
	/** Arguments after prepareArguments and validation. */
	args: unknown;
	context: AgentContext;
}

export interface BeforeToolCallResult {
	block?: boolean;
	/** The error text the model sees for a blocked call. */
	reason?: string;
	terminate?: boolean;
	/** Arguments that replace the call's (validated again against the tool's schema) when it is not blocked. */
	args?: unknown;
}

export interface AfterToolCallContext {
	assistantMessage: AssistantMessage;
	toolCall: ToolCall;
	args: unknown;
	result: AgentToolResult<any>;
	isError: boolean;
	context: AgentContext;
}

/** Each field given replaces the result's field whole (no deep merge). */
export interface AfterToolCallResult {
	content?: (TextContent | ImageContent)[];
	details?: unknown;
	isError?: boolean;
	terminate?: boolean;
}

export interface ShouldStopAfterTurnContext {
	message: AssistantMessage;
	toolResults: ToolResultMessage[];
	context: AgentContext;
	/**
	 * What this loop invocation would return if it stopped now: a prompt run's prompts and everything after them;
	 * a continuation's messages since it continued (not the context it continued from). A copy.
	 */
	newMessages: AgentMessage[];
}

export interface AgentLoopConfig extends StreamOptions {
	model: Model;
	/** Turns the agent's messages (custom roles included) into what the provider understands. */
	convertToLlm: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
	/** Runs before convertToLlm on every model call (pruning, compaction views). */
	transformContext?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[]>;
	/** Resolved before each model call, so short-lived keys stay fresh. */
	getApiKey?: (provider: string) => Promise<string | undefined> | string | undefined;
	toolExecution?: ToolExecutionMode;
	beforeToolCall?: (
		context: BeforeToolCallContext,
		signal?: AbortSignal,
	) => Promise<BeforeToolCallResult | undefined> | BeforeToolCallResult | undefined;
	afterToolCall?: (
		context: AfterToolCallContext,
		signal?: AbortSignal,
	) => Promise<AfterToolCallResult | undefined> | AfterToolCallResult | undefined;
	/**
	 * Ends the run after a turn without polling steering or follow-up queues. Like every callback here it should
	 * not throw; one that does ends the run with an error assistant message naming it, then agent_end.
	 */
	shouldStopAfterTurn?: (context: ShouldStopAfterTurnContext) => boolean | Promise<boolean>;
	/** Messages to inject after the current tool batch, before the next model call. */
	getSteeringMessages?: () => Promise<AgentMessage[]> | AgentMessage[];
	/** Messages to run only when the agent would otherwise stop. */
	getFollowUpMessages?: () => Promise<AgentMessage[]> | AgentMessage[];
}

export type AgentEvent =
	| { type: "agent_start" }
	| { type: "agent_end"; messages: AgentMessage[] }
	| { type: "turn_start" }
	| { type: "turn_end"; message: AgentMessage; toolResults: ToolResultMessage[] }
	| { type: "message_start"; message: AgentMessage }
	| { type: "message_update"; message: AgentMessage; assistantMessageEvent: AssistantMessageEvent }
	| { type: "message_end"; message: AgentMessage }
	| { type: "tool_execution_start"; toolCallId: string; toolName: string; args: any }
	| {
			type: "tool_execution_update";
			toolCallId: string;
			toolName: string;
			args: any;
			partialResult: AgentToolResult<any>;
	  }
	| { type: "tool_execution_end"; toolCallId: string; toolName: string; result: AgentToolResult<any>; isError: boolean };

export interface AgentState {
	systemPrompt: string;
	model: Model;
	thinkingLevel: ThinkingLevel;
	tools: AgentTool<any>[];
	messages: AgentMessage[];
	isStreaming: boolean;
	streamingMessage?: AgentMessage;
	pendingToolCalls: ReadonlySet<string>;
	errorMessage?: string;
}
