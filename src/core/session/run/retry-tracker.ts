// The retry events of one model request: retry_scheduled each time the provider waits to try again, then one
// retry_finished once the retried request is heard from (content arrived, or it ended).
import type { RetryInfo } from "../../ai/index.js";
import type { SessionEvent } from "../session-events.js";

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
