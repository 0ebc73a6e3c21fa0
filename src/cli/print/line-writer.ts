// Lines of JSON on stdout (JSON mode, RPC mode), written in the order given, at the pace the reader reads them;
// JSON mode's line format: one event per line, deltas carrying only the delta, so output grows linearly.
import type { Writable } from "node:stream";
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
	const value = lineValue(event, toolUpdates);
	return value === undefined ? undefined : jsonLine(value);
}

/**
 * A child session's event (subagent_event) is the same line nested in `event`, tagged with the parent's call id
 * (`toolCallId`), the child's `agent` and `sessionId`; its tool updates are written whole.
 */
function lineValue(event: SessionEvent, toolUpdates?: ToolUpdateDeltas): object | undefined {
	if (event.type === "tool_call_changed") return undefined;
	if (event.type === "subagent_event") {
		const inner = lineValue(event.event);
		return inner === undefined ? undefined : { ...event, event: inner };
	}
	if (event.type === "message_update") {
		const { partial: _partial, ...delta } = event.assistantMessageEvent as { partial?: unknown };
		return { type: "message_update", assistantMessageEvent: delta };
	}
	if (toolUpdates && event.type === "tool_execution_update") return toolUpdates.line(event);
	if (toolUpdates && event.type === "tool_execution_end") toolUpdates.end(event.toolCallId);
	return event;
}

/**
 * Writes lines to a stream that may be a pipe to a slow reader. Every line is handed to the stream at once and in
 * call order; write() returns a promise while the stream holds more than it wants (a full pipe), so a producer
 * that awaits it (the session's event listener, hence the run) waits for the reader, and what is held in memory
 * stays bounded. Once the stream fails or closes (the reader went away, EPIPE), the remaining lines are dropped,
 * quietly: nothing throws, and nobody waits for a reader who is gone.
 */
export class LineWriter {
	private ended = false;
	private waiting: Promise<void> | undefined;
	private release = () => {};
	/** The stream's first error (EPIPE when the reader went away). */
	private failure: NodeJS.ErrnoException | undefined;
	private readonly endListeners: ((error: NodeJS.ErrnoException | undefined) => void)[] = [];

	constructor(private readonly stream: NodeJS.WritableStream) {
		stream.on("error", (error: NodeJS.ErrnoException) => this.end(error));
		stream.once("close", () => this.end(undefined));
	}

	/** Whether lines still reach the stream: false once it failed or closed. */
	get open(): boolean {
		return !this.ended;
	}

	/**
	 * Writes `value` (an object, as one JSON line; a string, as the line itself). Undefined when the stream takes
	 * more at once; otherwise a promise that resolves once it has drained or closed. Never rejects.
	 */
	write(value: object | string): Promise<void> | undefined {
		if (this.ended) return undefined;
		const line = `${typeof value === "string" ? value : jsonLine(value)}\n`;
		if (this.stream.write(line)) return undefined;
		// Refused, not full: the stream failed (its error event is on its way), and no drain will come.
		if ((this.stream as Partial<Writable>).errored) return undefined;
		this.waiting ??= new Promise<void>((resolve) => {
			this.release = resolve;
			this.stream.once("drain", () => this.drained());
		});
		return this.waiting;
	}

	/** Calls `listener` once, when the stream fails (with its error) or closes; at once when it already has. */
	onEnd(listener: (error: NodeJS.ErrnoException | undefined) => void): void {
		if (this.ended) listener(this.failure);
		else this.endListeners.push(listener);
	}

	private drained(): void {
		this.waiting = undefined;
		this.release();
	}

	private end(error: NodeJS.ErrnoException | undefined): void {
		if (this.ended) return;
		this.ended = true;
		this.failure = error;
		this.drained();
		for (const listener of this.endListeners.splice(0)) listener(error);
	}
}
