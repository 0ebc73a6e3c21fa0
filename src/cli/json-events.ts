// JSON mode's line format: one event per line; deltas carry only the delta, so output grows linearly.
import type { SessionEvent } from "../core/session/index.js";

export interface SessionLine {
	type: "session";
	id: string;
	file?: string;
	cwd: string;
	provider: string;
	model: string;
}

/**
 * message_update drops the growing `message` and each delta's `partial` (both repeat everything so far);
 * every other event is written whole.
 */
export function eventToJsonLine(event: SessionEvent): string {
	if (event.type === "message_update") {
		const { partial: _partial, ...delta } = event.assistantMessageEvent as { partial?: unknown };
		return JSON.stringify({ type: "message_update", assistantMessageEvent: delta });
	}
	return JSON.stringify(event);
}
