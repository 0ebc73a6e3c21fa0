// The embedded batch: this machine runs the tasks, --jobs at once (fewer while the provider limits the rate), and
// appends each one's result as it ends. Stopped through the signal, it starts nothing more, stops the running
// tasks' looms (they record no result, so a rerun runs them again) and returns once they have gone.
import { errorMessage } from "../../core/index.js";
import type { BatchTask } from "./tasks-file.js";
import { appendResult } from "./results-file.js";
import { Pacer } from "./pacer.js";
import type { Progress } from "./progress.js";
import { failed as failedTask, runTask, type TaskRun } from "./run-task.js";

/** Times a task is put back because the provider limited the rate, before its failure is recorded. */
const MAX_RATE_LIMIT_REQUEUES = 5;

export interface LocalBatch {
	tasks: readonly BatchTask[];
	jobs: number;
	resultsFile: string;
	progress: Progress;
	run: Omit<TaskRun, "onRateLimit">;
}

/** Resolves with the count of failed tasks once every task has a result, or once the signal stopped the batch. */
export async function runLocalBatch(batch: LocalBatch): Promise<{ failed: number }> {
	const pacer = new Pacer(batch.jobs);
	const pending = [...batch.tasks];
	const requeued = new Map<string, number>();
	const running = new Set<Promise<void>>();
	const signal = batch.run.signal;
	let failed = 0;
	let wake = () => {};
	const run: TaskRun = { ...batch.run, onRateLimit: (delayMs) => pacer.rateLimited(delayMs) };

	const start = (task: BatchTask) => {
		batch.progress.taskStarted();
		const work = runTask(task, run).then(({ result, rateLimited, interrupted }) => {
			if (interrupted) return batch.progress.left();
			const times = requeued.get(task.id) ?? 0;
			if (rateLimited && times < MAX_RATE_LIMIT_REQUEUES) {
				requeued.set(task.id, times + 1);
				pacer.rateLimited(1000 * 2 ** times);
				pending.push(task);
				return batch.progress.left();
			}
			appendResult(batch.resultsFile, result);
			if (result.status === "failed") failed++;
			else pacer.succeeded();
			batch.progress.finished(result);
		});
		const startedAt = Date.now();
		// A task that could not be run or recorded (its folder, the results file) fails alone; the batch goes on.
		const settled = work.catch((error: unknown) => {
			failed++;
			batch.progress.finished(failedTask(task, startedAt, errorMessage(error)));
		});
		const tracked = settled.finally(() => {
			running.delete(tracked);
			wake();
		});
		running.add(tracked);
	};

	const onAbort = () => wake();
	signal?.addEventListener("abort", onAbort);
	try {
		while (running.size > 0 || (pending.length > 0 && !signal?.aborted)) {
			const wait = signal?.aborted || pending.length === 0 ? Infinity : pacer.wait(running.size);
			if (wait === 0) {
				start(pending.shift()!);
				continue;
			}
			await new Promise<void>((resolve) => {
				wake = resolve;
				if (wait !== Infinity) setTimeout(resolve, wait).unref();
			});
		}
	} finally {
		signal?.removeEventListener("abort", onAbort);
	}
	return { failed };
}
