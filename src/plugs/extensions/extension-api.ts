// What an extension sees: its default export is called with an ExtensionAPI, through which it watches and steers
// tool calls, observes the session's events, and adds tools and slash commands. Everything it registers lands
// on the session's own seams (hook chains, event stream, tool set, command registry), so every interface sees it.
import type { TSchema } from "@sinclair/typebox";
import type {
	ImageContent,
	TextContent,
	AgentSession,
	CommandContext,
	NoticeLevel,
	CommandSession,
	SessionEvent,
	SessionUi,
	ToolDefinition,
} from "../../core/index.js";

/**
 * Inputs of the tools whose calls handlers see typed, by tool name. The built-in tools add theirs by declaration
 * merging (see src/sdk), so `event.toolName === "bash"` narrows `event.input` to the bash tool's input.
 */
// biome-ignore lint/suspicious/noEmptyInterface: extension point
export interface KnownToolInputs {}

type KnownToolEvent<Base> = { [Name in keyof KnownToolInputs]: Base & { toolName: Name; input: KnownToolInputs[Name] } }[keyof KnownToolInputs];

interface ToolCallEventBase {
	type: "tool_call";
	toolCallId: string;
}

interface ToolResultEventBase {
	type: "tool_result";
	toolCallId: string;
	/** The result as the tool (and the handlers before this one) left it. */
	content: (TextContent | ImageContent)[];
	details: unknown;
	isError: boolean;
}

/**
 * A tool call about to run: after its arguments were validated (`input`), before it executes. Calls of one
 * assistant message are checked one by one in their order, then may run in parallel.
 */
export type ToolCallEvent =
	| KnownToolEvent<ToolCallEventBase>
	// `any`, not `unknown`: a check of `toolName` cannot tell a built-in from another tool, and `event.input.command`
	// after `event.toolName === "bash"` must read as the bash tool's input, not as unknown.
	| (ToolCallEventBase & { toolName: string; input: Record<string, any> });

/** A tool call that has run (or failed). Sibling calls of the same batch may not have finished: never wait for them. */
export type ToolResultEvent =
	| KnownToolEvent<ToolResultEventBase>
	| (ToolResultEventBase & { toolName: string; input: Record<string, any> });

export interface ToolCallEventResult {
	/** The call does not run; the model reads `reason` as the call's error result. */
	block?: boolean;
	/** Say what to do instead: the model acts on it. */
	reason?: string;
	/** Ask that the run stop after this batch (only when every call of the batch asks so). */
	terminate?: boolean;
}

/** Each field given replaces the result's field whole (no deep merge); later extensions see the replacement. */
export interface ToolResultEventResult {
	content?: (TextContent | ImageContent)[];
	details?: unknown;
	isError?: boolean;
	terminate?: boolean;
}

/** What a handler may use besides its event. */
export interface ExtensionContext {
	readonly cwd: string;
	readonly session: AgentSession;
	/** Asks or tells the user: the screen's dialogs and notices; in print mode, notices on stderr and no answers. */
	readonly ui: SessionUi;
	/** For tool_call and tool_result handlers: aborted when the run is stopped. A handler that ignores it is given up. */
	readonly signal?: AbortSignal;
}

type MaybePromise<T> = T | Promise<T>;

export type ToolCallHandler = (event: ToolCallEvent, ctx: ExtensionContext) => MaybePromise<ToolCallEventResult | undefined | void>;
export type ToolResultHandler = (event: ToolResultEvent, ctx: ExtensionContext) => MaybePromise<ToolResultEventResult | undefined | void>;
export type SessionEventType = SessionEvent["type"];
export type SessionEventHandler<T extends SessionEventType> = (
	event: Extract<SessionEvent, { type: T }>,
	ctx: ExtensionContext,
) => MaybePromise<void>;

export interface ExtensionCommand {
	/** One line for /help. */
	description: string;
	/** The arguments as /help shows them, e.g. "<name>". */
	argsHint?: string;
	/** `args`: everything typed after the command's name, trimmed. A throw is shown to the user as an error. */
	handler(args: string, ctx: CommandContext<CommandSession>): void | Promise<void>;
}

export interface SendMessageOptions {
	/**
	 * During a run: "steer" (default) after the current tool batch, "followUp" when the agent would otherwise
	 * stop. While idle, the message starts a run either way.
	 */
	deliverAs?: "steer" | "followUp";
}

export interface ExtensionAPI {
	/** The session's working directory. */
	readonly cwd: string;
	/** The session itself (its agent, model, messages, ui). */
	readonly session: AgentSession;
	/**
	 * Before a validated tool call runs: return `{ block: true, reason }` to stop it. Extensions run in load order;
	 * the first block wins. A handler that throws blocks the call, and the model reads the error.
	 */
	on(event: "tool_call", handler: ToolCallHandler): () => void;
	/**
	 * After a tool call ran: return the fields to replace (content, details, isError, terminate). Extensions run in
	 * load order, each seeing the result as the ones before left it. A handler that throws turns it into an error result.
	 */
	on(event: "tool_result", handler: ToolResultHandler): () => void;
	/**
	 * Observes one kind of the session's events (agent_start, message_end, tool_execution_end, run_end, …), in order.
	 * Observers do not hold the session up; a throw is reported to the user once per handler.
	 */
	on<T extends SessionEventType>(event: T, handler: SessionEventHandler<T>): () => void;
	/**
	 * Adds a tool the model can call (`parameters` a TypeBox schema or plain JSON Schema, `label`, `execute`, optionally
	 * `executionMode` and the presentation parts: promptGuide, promptRules, summarizeArgs, resultLines, …).
	 * Enabled from the next prompt on. Throws when a tool of that name exists.
	 */
	registerTool<TParameters extends TSchema, TDetails = unknown>(tool: ToolDefinition<TParameters, TDetails>): void;
	/**
	 * Adds a slash command (lowercase letters, digits and dashes). When another command has the name, one of them
	 * runs (built-ins first, then the user's extensions, the user's templates and skills, the project's extensions,
	 * the project's templates and skills) and the other is hidden with a notice; the extension loads either way.
	 */
	registerCommand(name: string, command: ExtensionCommand): void;
	/** Sends a message into the conversation, as the user would (the model answers it). */
	sendMessage(text: string, options?: SendMessageOptions): void;
	/** Tells the user something without adding to the conversation (a notice on the screen, a line on stderr). */
	notify(text: string, level?: NoticeLevel): void;
}

/** An extension: a module's default export, or a function given to createAgentSession. */
export type ExtensionFactory = (loom: ExtensionAPI) => void | Promise<void>;
