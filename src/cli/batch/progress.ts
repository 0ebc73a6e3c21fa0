// The batch's progress on stderr: one line redrawn in place on a terminal, else a line each time a task ends.
import { formatTokens } from "../../core/index.js";
import type { TaskResult } from "./results-file.js";

export class Progress {
	private done = 0;
	private failed = 0;
	private running = 0;
	private tokens = 0;
	private cost = 0;
	private readonly started = Date.now();

	constructor(
		private readonly stream: NodeJS.WriteStream,
		/** Tasks this run has to do (those a rerun skips not counted). */
		private readonly total: number,
		/** Tasks skipped as finished by an earlier run. */
		private readonly skipped: number,
	) {}

	taskStarted(): void {
		this.running++;
		this.draw(false);
	}

	/** A task left without a result (interrupted, or put back to run later). */
	left(): void {
		this.running = Math.max(0, this.running - 1);
		this.draw(false);
	}

	finished(result: TaskResult, wasRunning = true): void {
		if (wasRunning) this.running = Math.max(0, this.running - 1);
		if (result.status === "failed") this.failed++;
		else this.done++;
		this.tokens += result.usage.totalTokens;
		this.cost += result.cost;
		this.draw(true, result);
	}

	/** Ends the redrawn line. */
	end(): void {
		if (this.stream.isTTY) this.stream.write("\n");
	}

	line(): string {
		const ended = this.done + this.failed;
		const elapsed = Date.now() - this.started;
		const eta = ended > 0 && ended < this.total ? ` · ETA ${Math.ceil(((elapsed / ended) * (this.total - ended)) / 1000)}s` : "";
		const skipped = this.skipped > 0 ? ` (${this.skipped} done before)` : "";
		return `loom batch: ${ended}/${this.total}${skipped} · ${this.done} done · ${this.running} running · ${this.failed} failed · ${formatTokens(this.tokens)} tokens · $${this.cost.toFixed(4)}${eta}`;
	}

	private draw(ended: boolean, result?: TaskResult): void {
		if (this.stream.isTTY) this.stream.write(`\r\x1b[K${this.line()}`);
		else if (ended && result) this.stream.write(`${this.line()} · ${result.id}: ${result.status}\n`);
	}
}
