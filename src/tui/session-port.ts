// What the interactive screen needs from a session, and nothing more. The AgentSession satisfies it
// structurally; tests use a scripted fake. Methods may be sync or async; the screen awaits them either way.
import type { AgentMessage } from "../core/agent-types.js";
import type { ThinkingLevel } from "../core/llm-types.js";
import type { SessionEvent } from "../core/session/session-events.js";
import type { NamedToolPresentation } from "../core/tool-definition.js";
import type { UsageTotals } from "../core/session/usage-totals.js";

/** One saved session, as /resume lists it. */
export interface SessionSummary {
	/** Path of the session file; what resume() takes. */
	file: string;
	id: string;
	/** Last activity. */
	modified: Date;
	/** The first prompt, shortened; "" when none yet. */
	firstPrompt: string;
	messageCount: number;
}

export interface SessionPort {
	/**
	 * Registers a listener for every SessionEvent (agent events and the session's own), in order.
	 * The session may await a listener's promise; the screen's listener returns at once.
	 * Returns the function that unsubscribes.
	 */
	subscribe(listener: (event: SessionEvent) => void | Promise<void>): () => void;
	/**
	 * Sends a prompt and resolves when the whole agent run is over (after agent_end).
	 * Rejects only when the run cannot start (no API key, already running, …) with a message fit for the user.
	 */
	prompt(text: string): Promise<void>;
	/** Queues a steering message during a run: delivered after the current tool batch, before the next model call. */
	steer(text: string): void | Promise<void>;
	/** Queues a message to run once the agent would otherwise stop. Optional. */
	followUp?(text: string): void | Promise<void>;
	/** Interrupts the current run; no-op when idle. prompt() then resolves. */
	abort(): void | Promise<void>;
	/** Removes and returns the queued messages not yet delivered (emitting queue_changed). */
	clearQueue(): { steering: string[]; followUp: string[] };
	/** Switches the model by id (or provider/id); throws a user-facing Error for an unknown model. Emits model_changed. */
	setModel(modelId: string): void | Promise<void>;
	/** Emits thinking_changed. */
	setThinkingLevel(level: ThinkingLevel): void | Promise<void>;
	/** Starts a new, empty session (emits session_open). */
	newSession(): void | Promise<void>;
	/** Summarises the conversation to free context (emits compaction_start/end). Optional. */
	compact?(instructions?: string): Promise<void>;
	/** Saved sessions of the working directory, newest first. */
	listSessions(): SessionSummary[] | Promise<SessionSummary[]>;
	/** Opens a saved session by file path or id (emits session_open with its message count). */
	resume(sessionFileOrId: string): void | Promise<void>;

	/** The current model; contextWindow in tokens. */
	readonly model: { id: string; provider: string; contextWindow: number } | undefined;
	readonly thinkingLevel: ThinkingLevel;
	readonly cwd: string;
	/** Undefined when sessions are not saved (--no-session). */
	readonly sessionFile: string | undefined;
	/** Messages in the conversation. */
	readonly messageCount: number;
	/** The conversation, shown when a saved session is opened. Optional. */
	readonly messages?: readonly AgentMessage[];
	/** Token and cost totals of the whole session, loaded history included. */
	readonly usageTotals: UsageTotals;
	/** Tokens in the model's context after the last response, when known (for a resumed session's context %). Optional. */
	readonly contextUsage?: { tokens?: number };
	/**
	 * How the session's tools show their calls (argument summary, result lines), read at each event and render.
	 * Optional: a tool without a presentation gets generic rows (its arguments as JSON, its text result).
	 */
	readonly tools?: readonly NamedToolPresentation[];
}
