// What the interactive screen needs from a session, and nothing more. The AgentSession satisfies it
// structurally; tests use a scripted fake. Methods may be sync or async; the screen awaits them either way.
import type {
	AgentMessage,
	PromptOptions,
	CommandLookup,
	CommandSession,
	SessionEvent,
	ApprovalMode,
	SessionUi,
	NamedToolPresentation,
	UserCommandOptions,
	UserCommandResult,
} from "../core/index.js";

export type { SessionSummary } from "../core/index.js";

/** The screen runs the session's commands (CommandSession) and its own; it also needs what follows. */
export interface SessionPort extends CommandSession {
	/**
	 * Registers a listener for every SessionEvent (agent events and the session's own), in order.
	 * The session may await a listener's promise; the screen's listener returns at once.
	 * The screen is busy from run_start to run_end: the session frames every prompt's run with them.
	 * Returns the function that unsubscribes.
	 */
	subscribe(listener: (event: SessionEvent) => void | Promise<void>): () => void;
	/**
	 * Sends a prompt and resolves when its whole run is over (after run_end).
	 * Rejects only when the run cannot start (no API key, already running, …) with a message fit for the user.
	 */
	prompt(text: string, options?: PromptOptions): Promise<void>;
	/** Queues a steering message during a run: delivered after the current tool batch, before the next model call. */
	steer(text: string, options?: Pick<PromptOptions, "typed">): void | Promise<void>;
	/** Queues a message to run once the agent would otherwise stop. Optional. */
	followUp?(text: string, options?: Pick<PromptOptions, "typed">): void | Promise<void>;
	/** Interrupts the current run; no-op when idle. prompt() then resolves. */
	abort(): void | Promise<void>;
	/** Removes and returns the queued messages not yet delivered (emitting queue_changed). */
	clearQueue(): { steering: string[]; followUp: string[] };
	/** How the session asks the user (dialogs, notices). */
	readonly ui: SessionUi;
	/** The screen installs its dialogs here while it is mounted, and puts the previous UI back when it unmounts. */
	setUi(ui: SessionUi): void;
	/** The session's slash commands; the screen adds its own on top. */
	readonly commands: CommandLookup<CommandSession>;

	/** The current model; contextWindow in tokens; `input`: what it takes (["text", "image"]), unknown: anything. */
	readonly model: { id: string; provider: string; contextWindow: number; input?: readonly string[] } | undefined;
	/** The login the model's requests are signed in with ("ChatGPT login"), undefined for an API key. Optional. */
	readonly credential?: string;
	readonly cwd: string;
	/** The conversation, shown when a saved session is opened. Optional. */
	readonly messages?: readonly AgentMessage[];
	/** Tokens in the model's context after the last response, when known (for a resumed session's context %). Optional. */
	readonly contextUsage?: { tokens?: number };
	/**
	 * How the session's tools show their calls (argument summary, result lines), read at each event and render.
	 * Optional: a tool without a presentation gets generic rows (its arguments as JSON, its text result).
	 */
	readonly tools?: readonly NamedToolPresentation[];
	/** The approval mode, when a policy is installed (its changes arrive as approval_mode_changed). Optional. */
	readonly approvalMode?: ApprovalMode;
	/** What marked the conversation as holding untrusted text (changes arrive as taint_changed). Optional. */
	readonly taint?: string;
	/**
	 * Runs a shell command the user typed (`!command`) in the session's directory; resolves when the shell is done
	 * (a background job it left does not hold it), rejects when it cannot start. Aborting stops it.
	 */
	runUserCommand(command: string, options?: UserCommandOptions): Promise<UserCommandResult>;
	/** Masks the secrets the session keeps from the model in text the screen adds to a prompt (`!!` output). Optional. */
	maskSecrets?(text: string): string;
}

/** A prompt sent for the screen before it was up. */
export interface StartedPrompt {
	/** The prompt as typed. */
	typed: string;
	/** Its run: rejects, as prompt() does, when the run cannot start. */
	done: Promise<void>;
	/** Called once the screen's view reads the session (it has been given the events since the prompt was sent). */
	shown?(): void;
}