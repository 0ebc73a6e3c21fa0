// Turns a path as the model wrote it into an absolute path.
import os from "node:os";
import path from "node:path";

/** Expands `~` and `~/…`, then resolves relative paths against cwd. */
export function resolveToCwd(filePath: string, cwd: string): string {
	if (typeof filePath !== "string") throw new Error("path must be a string: the file path, relative to the working directory or absolute.");
	const trimmed = filePath.trim();
	if (trimmed.length === 0) throw new Error("Path is empty. Give a file path, relative to the working directory or absolute.");
	let expanded = trimmed;
	if (trimmed === "~") expanded = os.homedir();
	else if (trimmed.startsWith("~/")) expanded = path.join(os.homedir(), trimmed.slice(2));
	return path.resolve(cwd, expanded);
}
