// Files the agent read and changed, taken from its tool calls (each tool's definition says which files a call
// touches), carried from summary to summary.
import type { AgentMessage } from "../../engine/index.js";
import { pairToolResults } from "../../ai/index.js";
import { findTool, type ToolDefinition, toolFileEffects } from "../../engine/index.js";

export interface FileOperations {
	read: Set<string>;
	modified: Set<string>;
}

/** What file lists need of a tool: its name, and how it reads its calls' arguments. */
export type FileEffectTool = Pick<ToolDefinition, "name" | "fileEffects" | "prepareArguments">;
const READ_HEADING = "## Files read";
const MODIFIED_HEADING = "## Files modified";

function emptyFileOperations(): FileOperations {
	return { read: new Set(), modified: new Set() };
}

/**
 * Adds the paths that successful calls of `tools` read or changed. A call whose result failed (or never came)
 * changed nothing, so it is not counted; a call of a tool not in `tools`, or one that names no files, adds nothing.
 */
export function collectFileOperations(
	messages: readonly AgentMessage[],
	tools: readonly FileEffectTool[],
	into: FileOperations = emptyFileOperations(),
): FileOperations {
	for (const [call, result] of pairToolResults(messages)) {
		if (result.isError) continue;
		const effects = toolFileEffects(findTool(tools, call.name), call.arguments);
		for (const path of effects.reads) into.read.add(path);
		for (const path of effects.changes) into.modified.add(path);
	}
	return into;
}

/** The two lists as they end every summary; a file both read and modified is listed as modified only. */
export function formatFileLists(operations: FileOperations): string {
	const readOnly = [...operations.read].filter((path) => !operations.modified.has(path)).sort();
	const modified = [...operations.modified].sort();
	const list = (paths: string[]) => (paths.length > 0 ? paths.map((path) => `- ${path}`).join("\n") : "- (none)");
	return `${READ_HEADING}\n${list(readOnly)}\n\n${MODIFIED_HEADING}\n${list(modified)}`;
}

/**
 * Separates a summary written by `compact` into the model-written body and the file lists appended to it,
 * so the next compaction can merge the lists exactly instead of trusting the model to copy them.
 */
export function splitFileLists(summary: string): { body: string; operations: FileOperations } {
	const operations = emptyFileOperations();
	const start = summary.lastIndexOf(READ_HEADING);
	if (start === -1 || !summary.slice(start).includes(MODIFIED_HEADING)) return { body: summary.trim(), operations };
	let target: Set<string> | undefined;
	for (const line of summary.slice(start).split("\n")) {
		if (line.startsWith(READ_HEADING)) target = operations.read;
		else if (line.startsWith(MODIFIED_HEADING)) target = operations.modified;
		else if (target && line.startsWith("- ") && line !== "- (none)") target.add(line.slice(2));
	}
	return { body: summary.slice(0, start).trim(), operations };
}
