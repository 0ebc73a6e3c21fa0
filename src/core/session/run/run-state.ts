// One prompt's run, from the prompt to its outcome: everything the session learns along the way, in one object
// created per prompt, so nothing one run learned (an abort, a problem, its last answer) reaches the next;
// what the run gives back (how it ended); and the retry events of its model requests.
import type { AssistantMessage, RetryInfo } from "../../ai/index.js";
import type { RunOutcome } from "../agent-session-types.js";
import type { SessionEvent } from "../session-events.js";

export class RunState {
	/**
	 * From run_start to run_end: the checks passed and the agent runs, overflow recovery and queued follow-ups
	 * between its runs included. Before that the prompt waits (for the session to open, for a compaction).
	 */
	active = false;
	/** Model turns so far: the whole prompt counts, overflow retries and queued follow-ups included. */
	turns = 0;
	/** abort() was called, also before the run became active. */
	abortRequested = false;
	/** Provider retries of the run's requests: announced, then reported once the retried request is heard from. */
	readonly retries: RetryTracker;
	/** The run's last assistant message (the agent's messages may be swapped by a compaction meanwhile). */
	lastAnswer: AssistantMessage | undefined;
	/** Aborted with the run: what plugs run on its behalf between turns (prompt and stop hooks). */
	readonly stopHooks = new AbortController();
	/** How many times a stop hook made the run go on. */
	continued = 0;
	/** Why the run ends as an error, after this turn, whatever the model did (the session file could not be written, an extension broke). */
	problem: string | undefined;

	constructor(
		private readonly maxTurns = Infinity,
		emit: (event: SessionEvent) => Promise<void> = async () => {},
	) {
		this.retries = new RetryTracker(emit);
	}

	/** Counts a finished model turn; true when the run has reached its turn limit or has a problem. */
	countTurn(): boolean {
		return ++this.turns >= this.maxTurns || this.problem !== undefined;
	}

	/** Whether another agent run may follow this one (an overflow retry, queued messages). */
	get mayContinue(): boolean {
		return !this.abortRequested && this.problem === undefined && this.turns < this.maxTurns;
	}

	get signal(): AbortSignal {
		return this.stopHooks.signal;
	}

	outcome(): RunOutcome {
		return runOutcome(this.lastAnswer, this.abortRequested, this.problem);
	}
}

/**
 * What a prompt's run gives back: how it ended. `last`: the run's last assistant message; a problem (a write
 * failure, a plug that broke) or an abort request outranks how it ended.
 */
export function runOutcome(last: AssistantMessage | undefined, abortRequested: boolean, problem: string | undefined): RunOutcome {
	if (problem) return { status: "error", message: last, errorMessage: problem };
	if (abortRequested || last?.stopReason === "aborted") {
		return { status: "aborted", message: last, errorMessage: last?.errorMessage ?? "Aborted" };
	}
	if (last?.stopReason === "error") return { status: "error", message: last, errorMessage: last.errorMessage };
	return { status: "done", message: last };
}

/**
 * The retry events of one model request: retry_scheduled each time the provider waits to try again, then one
 * retry_finished once the retried request is heard from (content arrived, or it ended).
 */
export class RetryTracker {
	/** The attempt announced by the last retry_scheduled and not yet finished. */
	private attempt: number | undefined;

	constructor(private readonly emit: (event: SessionEvent) => Promise<void>) {}

	/** A retry is announced and its outcome not yet reported. */
	get pending(): boolean {
		return this.attempt !== undefined;
	}

	/** The request's onRetry: announces the wait. */
	scheduled(info: RetryInfo): void {
		this.attempt = info.attempt;
		void this.emit({ type: "retry_scheduled", ...info });
	}

	/** Reports how the announced retry went; nothing when none is pending. */
	finish(success: boolean): Promise<void> {
		const attempt = this.attempt;
		if (attempt === undefined) return Promise.resolve();
		this.attempt = undefined;
		return this.emit({ type: "retry_finished", attempt, success });
	}
}
