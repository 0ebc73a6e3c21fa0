// Presentation parts the file tools (read, edit, write) share: the path a call names, and a rule of theirs.
import { rawString, compactArgs, type ToolFileEffects } from "../core/index.js";

/** Said once in the system prompt however many file-changing tools are enabled. */
export const READ_BEFORE_CHANGE = "Read a file before you change it.";

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
