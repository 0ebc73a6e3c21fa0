// The queue for many machines: BullMQ on Redis is the engine (retries, stalled-job recovery, the rate limit), and
// loom adds no scheduler of its own. `loom batch --queue` adds one job per task (its id derived from the results
// file and the task's id, so a rerun adds none twice) and writes each job's result as the queue reports it;
// `loom worker` runs jobs with the same runner as the embedded batch. Loaded only with --queue: BullMQ and ioredis
// are not imported otherwise.
import { createHash } from "node:crypto";
import type { Job, Queue, QueueEvents, Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { BatchTask } from "./tasks-file.js";
import { appendResult, type TaskResult } from "./results-file.js";
import type { Progress } from "./progress.js";
import { runTask, type TaskRun } from "./run-task.js";
import { hostname } from "node:os";

/** Times a job may stall (its worker gone or too slow to renew the lock) and still run again. */
const MAX_STALLS = 3;

/** How long closing the queue's connections may take before loom leaves anyway. */
const CLOSE_WAIT_MS = 5000;

/** Waits for `work` (its failure ignored), or `ms` at most. */
function settleWithin(work: Promise<unknown>, ms: number): Promise<void> {
	return new Promise((resolve) => {
		const timer = setTimeout(resolve, ms);
		timer.unref();
		work.then(
			() => resolve(),
			() => resolve(),
		).finally(() => clearTimeout(timer));
	});
}

/** The BullMQ queue every loom batch and worker on a Redis shares. */
export const QUEUE_NAME = "loom-tasks";

/**
 * Attempts of a task before its failure is its result. A worker stopped (SIGINT, SIGTERM) hands its jobs back and a
 * worker killed mid-task lets them stall (BullMQ moves a stalled job back): neither costs an attempt.
 */
const ATTEMPTS = 2;

export interface TaskJobData {
	task: BatchTask;
}

async function connect(url: string): Promise<Redis> {
	const { Redis } = await import("ioredis");
	// BullMQ's blocking commands need ioredis to wait for Redis forever rather than fail a command.
	return new Redis(url, { maxRetriesPerRequest: null, lazyConnect: false });
}

/** The job of a task of the batch whose results go to `resultsFile`: the same on every rerun. */
function jobId(resultsFile: string, taskId: string): string {
	const hash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);
	return `${hash(resultsFile)}-${hash(taskId)}`;
}

export interface QueuedBatch {
	url: string;
	tasks: readonly BatchTask[];
	resultsFile: string;
	/** --collect: add nothing, collect the results of jobs added before. */
	collectOnly: boolean;
	progress: Progress;
	signal: AbortSignal;
}

/** Adds the tasks' jobs (unless collecting only) and appends each one's result as it ends; stops at the signal. */
export async function runQueuedBatch(batch: QueuedBatch): Promise<{ failed: number }> {
	const { Queue, QueueEvents, Job } = await import("bullmq");
	const [connection, eventsConnection] = await Promise.all([connect(batch.url), connect(batch.url)]);
	const queue: Queue<TaskJobData, TaskResult> = new Queue(QUEUE_NAME, { connection });
	const events: QueueEvents = new QueueEvents(QUEUE_NAME, { connection: eventsConnection });
	const waiting = new Map(batch.tasks.map((task) => [jobId(batch.resultsFile, task.id), task]));
	let failed = 0;
	let allIn = () => {};
	const done = new Promise<void>((resolve) => (allIn = resolve));
	const record = (result: TaskResult) => {
		appendResult(batch.resultsFile, result);
		if (result.status === "failed") failed++;
		batch.progress.finished(result, false);
		if (waiting.size === 0) allIn();
	};
	/** Records the job's result once it has one for good; `retryFailed`: a job that failed for good runs again instead. */
	const check = async (id: string, retryFailed = false) => {
		const task = waiting.get(id);
		if (!task) return;
		const job: Job<TaskJobData, TaskResult> | undefined = await Job.fromId(queue, id);
		if (!job) return;
		const state = await job.getState();
		if (state === "completed" && waiting.delete(id)) record(job.returnvalue);
		else if (state === "failed") {
			if (retryFailed) return void (await job.retry("failed"));
			if (waiting.delete(id)) record({ id: task.id, status: "failed", error: job.failedReason, usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 }, cost: 0, durationMs: 0, host: hostname(), pid: process.pid });
		}
	};
	try {
		await events.waitUntilReady();
		events.on("completed", ({ jobId: id }) => void check(id).catch(() => undefined));
		events.on("failed", ({ jobId: id }) => void check(id).catch(() => undefined));
		if (!batch.collectOnly) {
			await queue.addBulk(
				batch.tasks.map((task) => ({
					name: "task",
					data: { task },
					opts: { jobId: jobId(batch.resultsFile, task.id), attempts: ATTEMPTS, backoff: { type: "exponential", delay: 1000 } },
				})),
			);
		}
		// Jobs that ended before the events were heard (an earlier run's, or a fast worker's).
		for (const id of [...waiting.keys()]) await check(id, !batch.collectOnly);
		if (waiting.size > 0) {
			const stopped = new Promise<void>((resolve) => batch.signal.addEventListener("abort", () => resolve(), { once: true }));
			await Promise.race([done, stopped]);
		}
		return { failed };
	} finally {
		await settleWithin(Promise.all([events.close(), queue.close()]), CLOSE_WAIT_MS);
		connection.disconnect();
		eventsConnection.disconnect();
	}
}

export interface QueueWorker {
	url: string;
	jobs: number;
	lockMs?: number;
	run: Omit<TaskRun, "onRateLimit" | "signal">;
	signal: AbortSignal;
}

/**
 * Takes jobs until the signal: each runs as the embedded batch runs a task. A failed task throws, so BullMQ retries
 * it (on any worker); a 429 from the provider sets the queue's rate limit, so no worker takes a job meanwhile.
 */
export async function runQueueWorker(options: QueueWorker): Promise<void> {
	const { Queue, Worker, WaitingError } = await import("bullmq");
	const [connection, queueConnection] = await Promise.all([connect(options.url), connect(options.url)]);
	const queue: Queue = new Queue(QUEUE_NAME, { connection: queueConnection });
	const stop = new AbortController();
	const worker: Worker<TaskJobData, TaskResult> = new Worker(
		QUEUE_NAME,
		async (job, token) => {
			const outcome = await runTask(job.data.task, {
				...options.run,
				signal: stop.signal,
				onRateLimit: (delayMs) => void queue.rateLimit(delayMs).catch(() => undefined),
			});
			// Stopped, not failed: the job goes back to the front of the queue at once, its attempts as they were
			// (a WaitingError tells BullMQ the job was moved already, so it counts no failure).
			if (outcome.interrupted) {
				await job.moveToWait(token);
				throw new WaitingError();
			}
			if (outcome.result.status === "failed") throw new Error(outcome.result.error ?? "the task failed");
			return outcome.result;
		},
		{
			connection,
			concurrency: options.jobs,
			// BullMQ honours the queue's rate limit (queue.rateLimit, set on a 429 above) only for workers with a
			// limiter; this one never limits by itself.
			limiter: { max: 1_000_000, duration: 1000 },
			...(options.lockMs !== undefined ? { lockDuration: options.lockMs, stalledInterval: options.lockMs } : {}),
			// A busy machine may miss a lock renewal: a task is handed to another worker up to this many times before
			// it fails as stalled.
			maxStalledCount: MAX_STALLS,
		},
	);
	worker.on("error", () => undefined);
	try {
		await worker.waitUntilReady();
		await new Promise<void>((resolve) => {
			if (options.signal.aborted) resolve();
			options.signal.addEventListener("abort", () => resolve(), { once: true });
		});
	} finally {
		// The running tasks' looms stop and their jobs go back to the queue for any worker. A Redis that is gone must
		// not hold the worker open: closing waits a few seconds at most.
		stop.abort();
		await settleWithin(Promise.all([worker.close(), queue.close()]), CLOSE_WAIT_MS);
		connection.disconnect();
		queueConnection.disconnect();
	}
}
