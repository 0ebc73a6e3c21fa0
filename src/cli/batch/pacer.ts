// How many tasks a batch starts at once: up to --jobs, halved (and a pause) each time the provider limits the rate
// (HTTP 429), then one more after each task that ends well, back up to --jobs. The whole batch slows down, instead
// of every task failing its retries at the same moment.
export class Pacer {
	/** Tasks allowed to run at once now. */
	private allowed: number;
	private pausedUntil = 0;

	constructor(private readonly jobs: number) {
		this.allowed = jobs;
	}

	get limit(): number {
		return this.allowed;
	}

	/** A request was refused for its rate and will be retried after `delayMs`: fewer at once, none started meanwhile. */
	rateLimited(delayMs: number, now = Date.now()): void {
		this.allowed = Math.max(1, Math.floor(this.allowed / 2));
		this.pausedUntil = Math.max(this.pausedUntil, now + Math.max(0, delayMs));
	}

	/** A task ended without trouble from the provider: one more may run at once. */
	succeeded(): void {
		if (this.allowed < this.jobs) this.allowed++;
	}

	/** 0 when a task may start now with `running` running; else how long to wait (Infinity: until one ends). */
	wait(running: number, now = Date.now()): number {
		if (running >= this.allowed) return Infinity;
		return Math.max(0, this.pausedUntil - now);
	}
}
