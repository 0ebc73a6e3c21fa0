// Turns a path as the model wrote it into an absolute path.
import path from "node:path";
import { expandHome } from "../core/index.js";

/** Expands `~` and `~/…`, then resolves relative paths against cwd. */
export function resolveToCwd(filePath: string, cwd: string): string {
	if (typeof filePath !== "string") throw new Error("path must be a string: the file path, relative to the working directory or absolute.");
	const trimmed = filePath.trim();
	if (trimmed.length === 0) throw new Error("Path is empty. Give a file path, relative to the working directory or absolute.");
	return path.resolve(cwd, expandHome(trimmed));
}

/** prepareArguments for file tools: `file_path` (the name Claude Code's tools use) is taken as `path`. */
export function acceptFilePathAlias(args: unknown): unknown {
	if (args === null || typeof args !== "object" || Array.isArray(args)) return args;
	const { file_path: filePath, ...rest } = args as Record<string, unknown>;
	if ((rest as { path?: unknown }).path !== undefined || typeof filePath !== "string") return args;
	return { path: filePath, ...rest };
}
