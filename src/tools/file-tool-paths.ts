// The path a file tool's call names (read, edit, write; the search tools resolve theirs the same way): the names
// its argument goes by, the absolute path it means, and the parts of the tools' presentation made from it.
import path from "node:path";
import { compactArgs, expandHome, rawString, type ToolFileEffects } from "../core/index.js";

/** Said once in the system prompt however many file-changing tools are enabled. */
export const READ_BEFORE_CHANGE = "Read a file before you change it.";

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

/** The path a call's raw arguments name, under any name the file tools accept. */
export function pathArgument(args: unknown): string | undefined {
	return rawString(args, "path", "file_path", "filePath");
}

/** A row's summary for a call on one file: its path (the arguments as JSON when it names none). */
export function summarizePath(args: unknown): string {
	return pathArgument(args) ?? compactArgs(args);
}

/** fileEffects of a tool that reads or changes the one file its (prepared) `path` names. */
export function pathEffect(kind: keyof ToolFileEffects): (args: unknown) => ToolFileEffects {
	return (args) => {
		const path = rawString(args, "path");
		const paths = path === undefined ? [] : [path];
		return { reads: kind === "reads" ? paths : [], changes: kind === "changes" ? paths : [] };
	};
}
