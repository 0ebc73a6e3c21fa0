// Files the agent read and changed, taken from its read/edit/write tool calls, carried from summary to summary.
import type { AgentMessage } from "../../agent-types.js";
import type { AssistantMessage, ToolResultMessage } from "../../llm-types.js";

export interface FileOperations {
	read: Set<string>;
	modified: Set<string>;
}

const READ_TOOLS = new Set(["read"]);
const WRITE_TOOLS = new Set(["edit", "write"]);
const READ_HEADING = "## Files read";
const MODIFIED_HEADING = "## Files modified";

export function emptyFileOperations(): FileOperations {
	return { read: new Set(), modified: new Set() };
}

/**
 * Adds the paths of successful read, edit and write calls. A call whose result failed (or never came) changed
 * nothing, so it is not counted.
 */
export function collectFileOperations(messages: readonly AgentMessage[], into: FileOperations = emptyFileOperations()): FileOperations {
	const succeeded = new Set<string>();
	for (const message of messages) {
		const result = message as ToolResultMessage;
		if (result.role === "toolResult" && !result.isError) succeeded.add(result.toolCallId);
	}
	for (const message of messages) {
		if ((message as { role?: string }).role !== "assistant") continue;
		for (const part of (message as AssistantMessage).content) {
			if (part.type !== "toolCall" || !succeeded.has(part.id)) continue;
			const path = part.arguments?.path;
			if (typeof path !== "string" || path === "") continue;
			if (READ_TOOLS.has(part.name)) into.read.add(path);
			else if (WRITE_TOOLS.has(part.name)) into.modified.add(path);
		}
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
