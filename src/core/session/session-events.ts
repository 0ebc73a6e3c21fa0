// Events an AgentSession emits: every AgentEvent plus the session's own.
import type { AgentEvent, AgentToolResult, ToolCallDescription } from "../engine/index.js";
import type { ThinkingLevel } from "../ai/index.js";
import type { ApprovalMode } from "../config/index.js";
import type { TodoItem } from "./store/index.js";

export type CompactionReason = "threshold" | "overflow" | "manual";
/** How a prompt's run ended. */
export type RunOutcomeStatus = "done" | "error" | "aborted";
/**
 * How a call that needed the user's approval went: allowed once or for the session, denied by the user,
 * interrupted (the user pressed Esc: the run stops), or unanswered (nobody could be asked: print mode).
 */
export type ApprovalOutcome = "allowed" | "allowed-for-session" | "denied" | "interrupted" | "unanswered";

/** What the approval policy installed on a session tells its interfaces. */
export type ApprovalEvent =
	| { type: "approval_mode_changed"; mode: ApprovalMode }
	/** The call waits for the user's answer (its row shows "waiting for approval"). */
	| { type: "tool_approval_requested"; toolCallId: string; toolName: string }
	| {
			type: "tool_approval_resolved";
			toolCallId: string;
			toolName: string;
			outcome: ApprovalOutcome;
			/** Rules that would allow exactly this call (for "unanswered": what to pass to --allow). */
			rules?: string[];
	  };

/**
 * Where a call is: its message ended ("queued": its turn in the batch has not come), its preflight runs
 * ("preparing": validation, the before-chain), it waits for the user's answer, its execute() runs, it ended with
 * a result, failed, or was refused before it ran ("blocked": by the policy, the user, a hook).
 */
export type ToolCallStatus = "queued" | "preparing" | "awaiting_approval" | "running" | "done" | "error" | "blocked";

/**
 * One tool call as the session knows it (see tool-calls.ts): every front end reads this instead of keeping its
 * own. Replaced whole on every change, never changed in place. Times are epoch milliseconds.
 */
export interface ToolCallState {
	/** toolCallId. */
	readonly id: string;
	readonly name: string;
	/** The model's raw arguments. */
	readonly args: unknown;
	readonly status: ToolCallStatus;
	/** From the tool's definition, read once (a tool the session does not know gets the generic description). */
	readonly description: ToolCallDescription;
	/** When the assistant message holding the call ended (its preflight's start for a call no message announced). */
	readonly queuedAt: number;
	/** When its preflight began (tool_execution_start). */
	readonly preparingAt?: number;
	/** Since when it waits for the user's answer (awaiting_approval only). */
	readonly approvalRequestedAt?: number;
	/** Time spent waiting for the user's answers, in all. */
	readonly approvalWaitMs: number;
	/** When its execute() really began: after validation, the before-chain and any approval. */
	readonly startedAt?: number;
	readonly endedAt?: number;
	/** The latest live update while it runs. */
	readonly partialResult?: AgentToolResult<unknown>;
	/** The finalized result (after the after-chain), once it ended. */
	readonly result?: AgentToolResult<unknown>;
}

/**
 * Why a session_open: the session's first, a new one (/new), an opened one (/resume), a fork into a new file (/fork,
 * or the first session_open of a session started with --fork), or the conversation moved within its file (a rewind,
 * a switch of branch).
 */
export type SessionOpenReason = "open" | "new" | "resume" | "fork" | "rewind" | "branch";

/** A shell the model started with bash's `background: true`, as interfaces list it (the screen's /bashes, its footer). */
export interface BackgroundShellSummary {
	/** "bg1", "bg2", …: what bash_output and bash_kill take. */
	id: string;
	command: string;
	status: "running" | "exited" | "killed";
	/** Set once it exited by itself. */
	exitCode?: number | null;
	startedAt: number;
}

export type SessionOwnEvent =
	| {
			type: "session_open";
			/** Absent from older emitters: "open". */
			reason?: SessionOpenReason;
			sessionId: string;
			/** Undefined with --no-session. */
			file?: string;
			/** Whether `file` is on disk yet: a new session's file appears with its first message. Absent: it is. */
			saved?: boolean;
			/** Without a file: how the session's creator describes that (AgentSessionOptions.notSavedText). */
			notSavedText?: string;
			/** The session file this one was forked from (a fork, or a session opened that was one). */
			parentSession?: string;
			cwd: string;
			provider: string;
			model: string;
			/** The login requests are signed in with ("GitHub Copilot login"); absent for an API key. */
			credential?: string;
			thinkingLevel: ThinkingLevel;
			/** Messages loaded from an existing session file. */
			messageCount: number;
			/** The conversation's taint mark (see taint_changed), if any. */
			taint?: string;
			/** The conversation's todo list at this point (absent: none). */
			todos?: TodoItem[];
	  }
	/** The todo list changed (the todo tool, an approved plan); `items` is the whole new list. */
	| { type: "todo_changed"; items: TodoItem[] }
	/** The user approved a plan presented in plan mode; it is recorded in the session file and became the todo list. */
	| { type: "plan_approved"; plan: string }
	/**
	 * A prompt's run, from its start to its end: one or more agent runs (agent_start … agent_end), with an
	 * overflow's compaction or queued follow-ups between them. Busy from run_start to run_end.
	 */
	| { type: "run_start" }
	| { type: "run_end"; status: RunOutcomeStatus; errorMessage?: string }
	| { type: "retry_scheduled"; attempt: number; maxRetries: number; delayMs: number; reason: string }
	| { type: "retry_finished"; attempt: number; success: boolean }
	| { type: "queue_changed"; steering: string[]; followUp: string[] }
	/** `credential`: the login requests are signed in with ("ChatGPT login"), absent for an API key. */
	| { type: "model_changed"; provider: string; model: string; credential?: string }
	| { type: "thinking_changed"; level: ThinkingLevel }
	| { type: "compaction_start"; reason: CompactionReason }
	| {
			type: "compaction_end";
			reason: CompactionReason;
			aborted: boolean;
			summary?: string;
			tokensBefore?: number;
			error?: string;
	  }
	/**
	 * A tool call's execute() has begun: it passed validation and the before-chain. The agent's
	 * tool_execution_start comes earlier, at preflight, and a call may wait there (an approval, a batch run one
	 * call at a time); this says it is running, whether or not it reports progress.
	 */
	| { type: "tool_execution_running"; toolCallId: string; toolName: string }
	/**
	 * A tool call's state changed (see ToolCallState). Delivered just before the event that changed it, so a
	 * listener has the call's new state when it hears that event; the agent's events keep their order and shape.
	 */
	| { type: "tool_call_changed"; call: ToolCallState }
	/** Something the user must act on (missing key, unreachable provider), shown instead of a stack trace. */
	| { type: "session_error"; message: string }
	/** A background shell started, ended or was killed: every background shell of the session, oldest first. */
	| { type: "background_shells_changed"; shells: BackgroundShellSummary[] }
	/** The conversation was marked as holding text from the web or another untrusted source (`source`), or cleared (none). */
	| { type: "taint_changed"; source?: string }
	| SubagentEvent
	| ApprovalEvent;

/**
 * An event of a child session a tool call started (the task tool's subagent), as the parent's listeners hear it:
 * tagged with the parent's call id and the child's agent name. A grandchild's events arrive wrapped twice.
 */
export interface SubagentEvent {
	type: "subagent_event";
	/** The parent's tool call that started the child. */
	toolCallId: string;
	/** The agent definition's name ("general" without one). */
	agent: string;
	/** The child's session id. */
	sessionId: string;
	event: SessionEvent;
}

export type SessionEvent = AgentEvent | SessionOwnEvent;
