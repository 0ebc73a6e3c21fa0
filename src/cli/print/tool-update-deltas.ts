// JSON lines of tool_execution_update carry only what is new, as message_update lines do. A tool's update holds
// its progress so far (bash: the command's latest lines), so each line says how that text changed since the
// call's previous update: drop `drop` characters from its start (omitted when none: the text only grew), then
// append `delta`. Appending the deltas gives the output as it came, each piece once; the whole result comes in
// tool_execution_end.
import { textFromContent } from "../../core/index.js";
import type { SessionEvent } from "../../core/index.js";

type ToolUpdate = Extract<SessionEvent, { type: "tool_execution_update" }>;

/** Progress texts longer than this are not searched for their overlap with the next: the next is sent whole. */
const MAX_SEARCHED = 256 * 1024;
/** Characters of the new text looked for in the previous one, to find where they overlap. */
const PROBE = 32;

export interface ToolUpdateLine {
	type: "tool_execution_update";
	toolCallId: string;
	toolName: string;
	delta: string;
	drop?: number;
	details?: unknown;
}

function progressText(update: ToolUpdate): string {
	const content = update.partialResult?.content;
	return Array.isArray(content) ? textFromContent(content, { separator: "" }) : "";
}

/**
 * Where in `previous` the text that `current` starts with begins: 0 when `current` only grew, its length when
 * they share nothing (a redrawn line, a window that moved past everything). The earliest such place is taken.
 */
export function overlapStart(previous: string, current: string): number {
	if (current.startsWith(previous)) return 0;
	if (previous.length > MAX_SEARCHED) return previous.length;
	const probe = current.slice(0, PROBE);
	if (probe !== "") {
		for (let at = previous.indexOf(probe, 1); at !== -1; at = previous.indexOf(probe, at + 1)) {
			if (current.startsWith(previous.slice(at))) return at;
		}
	}
	// An overlap shorter than the probe: the end of `previous` that `current` starts with.
	for (let length = Math.min(probe.length - 1, previous.length - 1); length > 0; length--) {
		if (current.startsWith(previous.slice(previous.length - length))) return previous.length - length;
	}
	return previous.length;
}

/** One run's tool updates as delta lines; remembers each call's progress text until its end. */
export class ToolUpdateDeltas {
	private readonly progress = new Map<string, string>();

	line(update: ToolUpdate): ToolUpdateLine {
		const previous = this.progress.get(update.toolCallId) ?? "";
		const current = progressText(update);
		this.progress.set(update.toolCallId, current);
		const drop = overlapStart(previous, current);
		const details = update.partialResult?.details;
		return {
			type: "tool_execution_update",
			toolCallId: update.toolCallId,
			toolName: update.toolName,
			delta: current.slice(previous.length - drop),
			...(drop > 0 ? { drop } : {}),
			...(details !== undefined ? { details } : {}),
		};
	}

	/** The call ended: its progress is no longer needed. */
	end(toolCallId: string): void {
		this.progress.delete(toolCallId);
	}
}
