// Runs one task: its folder made, a child `loom -p --mode json` in it, the child's events read into the task's
// result, the diff taken, the folder removed. A child process per task keeps tasks apart (a crash, a leak, an
// extension's globals, process.chdir) and runs exactly what a user's own `loom -p` runs.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { answerText, type AssistantMessage } from "../../core/index.js";
import { EXIT } from "../run-io.js";
import type { BatchTask } from "./tasks-file.js";
import type { TaskResult } from "./results-file.js";
import { makeTaskFolder, type TaskFolder } from "./task-folder.js";

/** The part of loom's stderr a failed task's result keeps. */
const MAX_ERROR_CHARS = 2000;

export interface TaskRun {
	/** Flags every task's loom gets (model, provider, key, approval…), before the task's own. */
	flags: readonly string[];
	env: NodeJS.ProcessEnv;
	/** A folder of this batch's own, where task folders and schema files are made. */
	workRoot: string;
	/** Told each time a task's request is retried because the provider limits the rate (HTTP 429). */
	onRateLimit?: (delayMs: number) => void;
	/** Aborting stops the task's loom as Ctrl+C would; the task then has no result. */
	signal?: AbortSignal;
}

export interface TaskOutcome {
	result: TaskResult;
	/** The task failed because the provider kept limiting the rate: worth running again later, not a failure of the task. */
	rateLimited: boolean;
	/** Stopped through the signal: no result to record. */
	interrupted: boolean;
}

/** A retry's reason that says the provider limits the rate. */
export const RATE_LIMITED = /\b429\b|rate.?limit|too many requests/i;

export async function runTask(task: BatchTask, run: TaskRun): Promise<TaskOutcome> {
	const started = Date.now();
	// A folder of this run's own: ids that read alike once made a file name (`a/b`, `a_b`), or the same id from two
	// batches on one worker, never share one. The task works in <slot>/<id as a file name (its first 100 characters)>.
	const name = task.id.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 100);
	let slot: string | undefined;
	let folder: TaskFolder;
	try {
		slot = mkdtempSync(join(run.workRoot, `${name}-`));
		folder = await makeTaskFolder(join(slot, name), task.repo !== undefined ? { repo: task.repo } : { cwd: task.cwd ?? process.cwd() });
	} catch (error) {
		if (slot !== undefined) rmSync(slot, { recursive: true, force: true });
		return { result: failed(task, started, `could not make the task's folder: ${(error as Error).message}`), rateLimited: false, interrupted: false };
	}
	try {
		const args = [loomBin(), "-p", "--mode", "json", ...run.flags];
		if (task.model !== undefined) args.push("--model", task.model);
		if (task.outputSchema !== undefined) {
			const schemaFile = join(slot, "schema.json");
			writeFileSync(schemaFile, JSON.stringify(task.outputSchema));
			args.push("--output-schema", schemaFile);
		}
		args.push("--", task.prompt);
		const child = await runChild(args, folder.cwd, run);
		const interrupted = run.signal?.aborted === true;
		const status = child.code === EXIT.ok ? "done" : child.code === EXIT.invalidOutput ? "invalid_output" : "failed";
		const result: TaskResult = {
			id: task.id,
			status,
			answer: child.answer,
			...(child.structured !== undefined ? { result: child.structured } : {}),
			...(status === "done" ? {} : { error: child.stderr.trim().slice(-MAX_ERROR_CHARS) || `loom exited with ${child.code ?? child.signal}` }),
			diff: interrupted ? "" : await folder.diff().catch((error: Error) => `[no diff: ${error.message}]`),
			usage: child.usage,
			cost: child.cost,
			durationMs: Date.now() - started,
			sessionFile: child.sessionFile,
			host: hostname(),
			pid: process.pid,
		};
		return { result, rateLimited: status === "failed" && RATE_LIMITED.test(child.stderr), interrupted };
	} finally {
		await folder.remove().catch(() => undefined);
		rmSync(slot, { recursive: true, force: true });
	}
}

export function failed(task: BatchTask, started: number, error: string): TaskResult {
	return { id: task.id, status: "failed", error, usage: emptyUsage(), cost: 0, durationMs: Date.now() - started, host: hostname(), pid: process.pid };
}

function emptyUsage(): TaskResult["usage"] {
	return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 };
}

interface ChildOutcome {
	code: number | null;
	signal: NodeJS.Signals | null;
	stderr: string;
	answer?: string;
	structured?: unknown;
	usage: TaskResult["usage"];
	cost: number;
	sessionFile?: string;
}

/** Runs loom and reads its JSON lines as they come (retries are reported at once, for the batch's pace). */
function runChild(args: string[], cwd: string, run: TaskRun): Promise<ChildOutcome> {
	return new Promise((resolve) => {
		const child = spawn(process.execPath, args, { cwd, env: run.env, stdio: ["ignore", "pipe", "pipe"] });
		const outcome: ChildOutcome = { code: null, signal: null, stderr: "", usage: emptyUsage(), cost: 0 };
		const stop = () => child.kill("SIGINT");
		// A batch stopped while the task's folder was being made: the child is stopped as soon as it exists.
		if (run.signal?.aborted) stop();
		else run.signal?.addEventListener("abort", stop, { once: true });
		child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
			outcome.stderr = (outcome.stderr + chunk).slice(-4 * MAX_ERROR_CHARS);
		});
		const lines = createInterface({ input: child.stdout });
		lines.on("line", (line) => readEvent(line, outcome, run));
		let closed = 0;
		const settle = () => {
			if (++closed < 2) return;
			run.signal?.removeEventListener("abort", stop);
			resolve(outcome);
		};
		lines.on("close", settle);
		child.on("error", (error) => {
			outcome.stderr += `\n${error.message}`;
		});
		child.on("close", (code, signal) => {
			outcome.code = code;
			outcome.signal = signal;
			settle();
		});
	});
}

function readEvent(line: string, outcome: ChildOutcome, run: TaskRun): void {
	let event: any;
	try {
		event = JSON.parse(line);
	} catch {
		return;
	}
	if (event?.type === "session") outcome.sessionFile = event.file;
	else if (event?.type === "retry_scheduled" && RATE_LIMITED.test(String(event.reason))) run.onRateLimit?.(Number(event.delayMs) || 1000);
	else if (event?.type === "result" && event.status === "ok") outcome.structured = event.result;
	else if (event?.type === "message_end" && event.message?.role === "assistant") {
		const message = event.message as AssistantMessage;
		outcome.answer = answerText(message);
		const usage = message.usage;
		if (usage) {
			for (const key of ["input", "output", "cacheRead", "cacheWrite", "totalTokens"] as const) outcome.usage[key] += usage[key] ?? 0;
			outcome.cost += usage.cost?.total ?? 0;
		}
	}
}

let bin: string | undefined;

/** bin/loom of this installation: the nearest one above this module (the bundle's chunk, or the source in tests). */
export function loomBin(): string {
	if (bin) return bin;
	for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
		if (existsSync(join(dir, "bin", "loom")) && existsSync(join(dir, "package.json"))) return (bin = join(dir, "bin", "loom"));
		if (dirname(dir) === dir) throw new Error("loom's bin/loom was not found above its own modules.");
	}
}
