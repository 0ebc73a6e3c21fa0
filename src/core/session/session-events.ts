// Events an AgentSession emits: every AgentEvent plus the session's own.
import type { AgentEvent } from "../agent-types.js";
import type { ThinkingLevel } from "../llm-types.js";

export type CompactionReason = "threshold" | "overflow" | "manual";
/** How a prompt's run ended. */
export type RunOutcomeStatus = "done" | "error" | "aborted";

export type SessionOwnEvent =
	| {
			type: "session_open";
			sessionId: string;
			/** Undefined with --no-session. */
			file?: string;
			cwd: string;
			provider: string;
			model: string;
			thinkingLevel: ThinkingLevel;
			/** Messages loaded from an existing session file. */
			messageCount: number;
	  }
	/**
	 * A prompt's run, from its start to its end: one or more agent runs (agent_start … agent_end), with an
	 * overflow's compaction or queued follow-ups between them. Busy from run_start to run_end.
	 */
	| { type: "run_start" }
	| { type: "run_end"; status: RunOutcomeStatus; errorMessage?: string }
	| { type: "retry_scheduled"; attempt: number; maxRetries: number; delayMs: number; reason: string }
	| { type: "retry_finished"; attempt: number; success: boolean }
	| { type: "queue_changed"; steering: string[]; followUp: string[] }
	| { type: "model_changed"; provider: string; model: string }
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
	/** Something the user must act on (missing key, unreachable provider), shown instead of a stack trace. */
	| { type: "session_error"; message: string };

export type SessionEvent = AgentEvent | SessionOwnEvent;
