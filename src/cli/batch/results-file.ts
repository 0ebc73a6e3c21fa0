// results.jsonl: one line per task as it ends, appended (each line written whole, in one write), so an interrupted
// batch leaves the results of the tasks that finished, and a rerun knows which ones to skip.
import { appendFileSync, readFileSync } from "node:fs";
import type { Usage } from "../../core/index.js";

export type TaskStatus = "done" | "invalid_output" | "failed";

/** What a task's line says. */
export interface TaskResult {
	id: string;
	/** done: the run finished (with a valid answer, when a schema was given); invalid_output: exit 3; failed: anything else. */
	status: TaskStatus;
	/** The final answer's text. */
	answer?: string;
	/** With an output schema: the valid JSON value. */
	result?: unknown;
	/** Why the task failed (the last lines loom wrote on stderr). */
	error?: string;
	/** What the task changed in its worktree (or copy), as `git diff --binary` shows it; "" for nothing. */
	diff?: string;
	usage: Pick<Usage, "input" | "output" | "cacheRead" | "cacheWrite" | "totalTokens">;
	/** US dollars, as the model's prices give it. */
	cost: number;
	durationMs: number;
	/** The task's session file (on the machine that ran it). */
	sessionFile?: string;
	/** The host that ran it, and the pid of the loom batch or worker there. */
	host: string;
	pid: number;
}

/** Statuses a rerun does not run again: the task ran to its end. A failed task runs again. */
export function isFinished(status: unknown): boolean {
	return status === "done" || status === "invalid_output";
}

/** The ids of the tasks results.jsonl holds a finished result for (a missing file holds none; a torn last line is skipped). */
export function finishedIds(file: string): Set<string> {
	let text: string;
	try {
		text = readFileSync(file, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return new Set();
		throw error;
	}
	const ids = new Set<string>();
	for (const line of text.split("\n")) {
		if (line.trim() === "") continue;
		try {
			const result = JSON.parse(line) as Partial<TaskResult>;
			if (typeof result.id === "string" && isFinished(result.status)) ids.add(result.id);
		} catch {
			// A line cut short by a crash: that task did not finish.
		}
	}
	return ids;
}

export function appendResult(file: string, result: TaskResult): void {
	appendFileSync(file, `${JSON.stringify(result)}\n`);
}
