// `loom batch <tasks.jsonl>`: reads and checks the tasks, skips those results.jsonl holds as finished, then runs
// the rest here (local-batch.ts) or hands them to a queue's workers and collects their results (queue.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { BatchCommandOptions, CliOptions } from "../args.js";
import { API_KEY_ENV, EXIT, type RunIo, UsageError } from "../run-io.js";
import { enterPhase } from "../termination.js";
import { readTasksFile, TasksFileError, type BatchTask } from "./tasks-file.js";
import { finishedIds } from "./results-file.js";
import { Progress } from "./progress.js";
import { runLocalBatch } from "./local-batch.js";
import type { TaskRun } from "./run-task.js";

export async function runBatchCommand(options: CliOptions, io: RunIo): Promise<number> {
	const batch = options.batch!;
	const tasksFile = resolve(io.cwd, batch.tasks);
	let tasks: BatchTask[];
	try {
		tasks = readTasksFile(tasksFile).map((task) => ({ ...task, cwd: task.repo === undefined ? (task.cwd ?? io.cwd) : undefined }));
	} catch (error) {
		if (error instanceof TasksFileError) throw new UsageError(error.message);
		throw error;
	}
	const resultsFile = batch.results === undefined ? join(dirname(tasksFile), "results.jsonl") : resolve(io.cwd, batch.results);
	const finished = finishedIds(resultsFile);
	const todo = tasks.filter((task) => !finished.has(task.id));
	const progress = new Progress(io.stderr, todo.length, tasks.length - todo.length);
	if (todo.length === 0) {
		io.stderr.write(`loom batch: all ${tasks.length} tasks have results in ${resultsFile}.\n`);
		return EXIT.ok;
	}
	const controller = new AbortController();
	let interrupted: number | undefined;
	const stopSignals = enterPhase({
		stop(code) {
			interrupted = code;
			controller.abort();
		},
	});
	try {
		const { failed } = batch.queue
			? await (await import("./queue.js")).runQueuedBatch({ url: batch.queue, tasks: todo, resultsFile, collectOnly: batch.collect, progress, signal: controller.signal })
			: await runHere(batch, todo, resultsFile, progress, { flags: childFlags(options), env: childEnv(options, io.env) }, controller.signal);
		progress.end();
		if (interrupted !== undefined) {
			io.stderr.write("loom batch: interrupted; run the same command again to run the tasks without a result.\n");
			return interrupted;
		}
		return failed > 0 ? EXIT.failure : EXIT.ok;
	} finally {
		stopSignals();
	}
}

async function runHere(batch: BatchCommandOptions, tasks: BatchTask[], resultsFile: string, progress: Progress, child: Pick<TaskRun, "flags" | "env">, signal: AbortSignal) {
	const workRoot = mkdtempSync(join(tmpdir(), "loom-batch-"));
	try {
		return await runLocalBatch({ tasks, jobs: batch.jobs, resultsFile, progress, run: { ...child, workRoot, signal } });
	} finally {
		rmSync(workRoot, { recursive: true, force: true });
	}
}

/**
 * The environment of each task's loom: this one's, with the key of --api-key as LOOM_API_KEY. Never a flag: a
 * command line is readable by every user of the machine (`ps`, /proc/PID/cmdline), a process's environment only by
 * its own user.
 */
export function childEnv(options: CliOptions, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
	return options.apiKey === undefined ? env : { ...env, [API_KEY_ENV]: options.apiKey };
}

/** The flags of this command line each task's loom gets too: the model, the tools, approval… (the key: childEnv). */
export function childFlags(options: CliOptions): string[] {
	// A task's folder goes once its diff is taken: checkpoints of it would only fill loom's home.
	const flags: string[] = ["--no-checkpoints"];
	const value = (flag: string, given: string | number | undefined) => given !== undefined && flags.push(flag, String(given));
	value("--provider", options.provider);
	value("--model", options.model);
	value("--base-url", options.baseUrl);
	value("--thinking", options.thinking);
	value("--toolExecution", options.toolExecution);
	if (options.tools !== undefined) flags.push(...(options.tools.length === 0 ? ["--no-tools"] : ["--tools", options.tools.join(",")]));
	value("--system-prompt", options.systemPrompt);
	value("--append-system-prompt", options.appendSystemPrompt);
	if (!options.contextFiles) flags.push("--no-context-files");
	for (const extension of options.extensions) flags.push("--extension", resolve(extension));
	if (options.trust) flags.push("--trust");
	// A file is found from the task's folder otherwise; JSON text stays as it is.
	for (const config of options.mcpConfig) flags.push("--mcp-config", config.trimStart().startsWith("{") ? config : resolve(config));
	value("--max-turns", options.maxTurns);
	value("--approval", options.approval);
	value("--sandbox", options.sandbox);
	for (const rule of options.allow) flags.push("--allow", rule);
	for (const rule of options.deny) flags.push("--deny", rule);
	if (options.ephemeral) flags.push("--ephemeral");
	else if (!options.persist) flags.push("--no-session");
	return flags;
}
