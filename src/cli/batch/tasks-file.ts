// A batch's tasks: one JSON object a line (blank lines and lines starting with # skipped), checked before anything
// runs, so a typo in line 37 is reported before 36 tasks have cost money.
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";

/** One task as a batch runs it: paths resolved, the schema read, an id for every task. */
export interface BatchTask {
	/** The line's id, else "line-<n>": what results.jsonl and a rerun know the task by. */
	id: string;
	prompt: string;
	/** The folder the task works on (a worktree of its repository, or a copy, is made of it). */
	cwd?: string;
	/** A git repository (path or URL) cloned for the task instead. */
	repo?: string;
	model?: string;
	/** The JSON Schema its answer must follow (a file's, given relative to the tasks file, is read here). */
	outputSchema?: Record<string, unknown>;
}

/** Thrown for a tasks file that cannot be used, naming the line. */
export class TasksFileError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "TasksFileError";
	}
}

const FIELDS = new Set(["id", "prompt", "cwd", "repo", "model", "outputSchema"]);

/** Reads and checks every line; `cwd` is where relative task folders start when the file is not beside them. */
export function readTasksFile(file: string): BatchTask[] {
	let text: string;
	try {
		text = readFileSync(file, "utf8");
	} catch (error) {
		throw new TasksFileError(`${file}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`);
	}
	const base = dirname(resolve(file));
	const tasks: BatchTask[] = [];
	const ids = new Set<string>();
	text.split("\n").forEach((line, index) => {
		const trimmed = line.trim();
		if (trimmed === "" || trimmed.startsWith("#")) return;
		const where = `${file}:${index + 1}`;
		const task = parseTask(trimmed, where, base, index + 1);
		if (ids.has(task.id)) throw new TasksFileError(`${where}: the id "${task.id}" is already used by another task.`);
		ids.add(task.id);
		tasks.push(task);
	});
	if (tasks.length === 0) throw new TasksFileError(`${file}: no tasks (one JSON object a line, each with a "prompt").`);
	return tasks;
}

function parseTask(line: string, where: string, base: string, lineNumber: number): BatchTask {
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch (error) {
		throw new TasksFileError(`${where}: not JSON (${(error as Error).message}).`);
	}
	if (typeof value !== "object" || value === null || Array.isArray(value)) throw new TasksFileError(`${where}: a task is a JSON object.`);
	const raw = value as Record<string, unknown>;
	const unknown = Object.keys(raw).filter((key) => !FIELDS.has(key));
	if (unknown.length > 0) throw new TasksFileError(`${where}: unknown field ${unknown.map((key) => `"${key}"`).join(", ")} (fields: ${[...FIELDS].join(", ")}).`);
	const text = (key: string): string | undefined => {
		const field = raw[key];
		if (field === undefined) return undefined;
		if (typeof field !== "string" || field.trim() === "") throw new TasksFileError(`${where}: "${key}" must be a non-empty string.`);
		return field;
	};
	const prompt = text("prompt");
	if (prompt === undefined) throw new TasksFileError(`${where}: the task has no "prompt".`);
	const id = text("id") ?? `line-${lineNumber}`;
	const cwd = text("cwd");
	const repo = text("repo");
	if (cwd !== undefined && repo !== undefined) throw new TasksFileError(`${where}: give "cwd" or "repo", not both.`);
	return {
		id,
		prompt,
		cwd: cwd === undefined ? undefined : resolve(base, cwd),
		// A local repository's path is taken from the tasks file's folder too; a URL stays as it is.
		repo: repo === undefined ? undefined : /^[a-z][a-z0-9+.-]*:\/\/|^[^/]+@[^/:]+:/i.test(repo) || isAbsolute(repo) ? repo : resolve(base, repo),
		model: text("model"),
		outputSchema: schemaOf(raw.outputSchema, where, base),
	};
}

/** A schema given inline, or the path of a JSON file holding it. */
function schemaOf(value: unknown, where: string, base: string): Record<string, unknown> | undefined {
	if (value === undefined) return undefined;
	if (typeof value === "string") {
		try {
			return schemaOf(JSON.parse(readFileSync(resolve(base, value), "utf8")), where, base);
		} catch (error) {
			if (error instanceof TasksFileError) throw error;
			throw new TasksFileError(`${where}: "outputSchema" ${value}: ${(error as Error).message}`);
		}
	}
	if (typeof value !== "object" || value === null || Array.isArray(value)) throw new TasksFileError(`${where}: "outputSchema" must be a JSON Schema object or a file name.`);
	return value as Record<string, unknown>;
}
