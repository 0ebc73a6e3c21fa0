// Streamed deltas joined before they reach the reducer: a fast stream sends tens of thousands of small
// deltas, and reducing each one builds a new view each time. Consecutive deltas of the same kind and
// content block reduce to the same text as one joined delta (only where finished paragraphs are cut
// may differ, which the transcript does not show).
import type { AssistantMessageEvent } from "../../core/index.js";
import type { ScreenEvent } from "./reducer.js";

type DeltaEvent = Extract<AssistantMessageEvent, { type: "text_delta" | "thinking_delta" | "toolcall_delta" }>;
type DeltaUpdate = Extract<ScreenEvent, { type: "message_update" }> & { assistantMessageEvent: DeltaEvent };

const NONE: readonly ScreenEvent[] = [];

function isDeltaUpdate(event: ScreenEvent): event is DeltaUpdate {
	if (event.type !== "message_update") return false;
	const type = event.assistantMessageEvent?.type;
	return type === "text_delta" || type === "thinking_delta" || type === "toolcall_delta";
}

/** The characters a streamed delta carries (text, thinking or a tool call's arguments); 0 for any other event. */
export function deltaLength(event: ScreenEvent): number {
	return isDeltaUpdate(event) ? event.assistantMessageEvent.delta.length : 0;
}

export class DeltaBatch {
	private first: DeltaUpdate | undefined;
	private parts: string[] = [];

	/**
	 * Keeps `event` if it is a delta that can join the batch; returns the events to reduce now, in order:
	 * the batch it ends (joined) and the event itself when it cannot be kept.
	 */
	add(event: ScreenEvent): readonly ScreenEvent[] {
		if (!isDeltaUpdate(event)) return [...this.take(), event];
		const first = this.first;
		if (first && first.assistantMessageEvent.type === event.assistantMessageEvent.type && first.assistantMessageEvent.contentIndex === event.assistantMessageEvent.contentIndex) {
			this.parts.push(event.assistantMessageEvent.delta);
			return NONE;
		}
		const ended = this.take();
		this.first = event;
		this.parts = [event.assistantMessageEvent.delta];
		return ended;
	}

	/** The batch as one event (none when empty), and an empty batch. */
	take(): readonly ScreenEvent[] {
		const first = this.first;
		if (!first) return NONE;
		this.first = undefined;
		const parts = this.parts;
		this.parts = [];
		if (parts.length === 1) return [first];
		return [{ ...first, assistantMessageEvent: { ...first.assistantMessageEvent, delta: parts.join("") } }];
	}
}
