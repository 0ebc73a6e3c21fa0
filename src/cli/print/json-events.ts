// JSON mode's line format: one event per line; deltas carry only the delta, so output grows linearly.
import type { SessionEvent } from "../../core/index.js";
import type { ToolUpdateDeltas } from "./tool-update-deltas.js";

export interface SessionLine {
	type: "session";
	id: string;
	file?: string;
	cwd: string;
	provider: string;
	model: string;
}

/** DEL and the C1 controls, which JSON.stringify leaves raw (a terminal may read U+009B as CSI). */
const RAW_CONTROLS = /[\u007f-\u009f]/g;

/** One JSON line with no raw control character: JSON.stringify escapes C0, this escapes the rest. */
export function jsonLine(value: unknown): string {
	return JSON.stringify(value).replace(RAW_CONTROLS, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * Undefined for tool_call_changed: the lines keep the agent's tool timeline as it is, and a call's whole state on
 * every update would repeat its output each time (RPC clients ask get_state for the states).
 * message_update drops the growing `message` and each delta's `partial` (both repeat everything so far). With
 * `toolUpdates` (one per run), tool_execution_update carries only the new output (see tool-update-deltas.ts);
 * every other event is written whole.
 */
export function eventToJsonLine(event: SessionEvent, toolUpdates?: ToolUpdateDeltas): string | undefined {
	if (event.type === "tool_call_changed") return undefined;
	if (event.type === "message_update") {
		const { partial: _partial, ...delta } = event.assistantMessageEvent as { partial?: unknown };
		return jsonLine({ type: "message_update", assistantMessageEvent: delta });
	}
	if (toolUpdates && event.type === "tool_execution_update") return jsonLine(toolUpdates.line(event));
	if (toolUpdates && event.type === "tool_execution_end") toolUpdates.end(event.toolCallId);
	return jsonLine(event);
}
