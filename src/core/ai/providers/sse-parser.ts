// Incremental Server-Sent Events parser (the WHATWG event-stream format) for provider response bodies.
// Ours rather than the SDKs': theirs re-concatenate and re-slice byte arrays per event and hop through
// several async generators per event, which dominated the CPU time of a fast stream. This one decodes each
// network chunk once with a streaming TextDecoder and calls back synchronously for every event.

import { ProviderStreamError } from "./provider-error.js";

/**
 * Longest event accepted, in characters (one unfinished line, or the data lines of one event). The largest
 * real events (a whole tool input or answer sent at once) stay far below a megabyte, as an answer is capped by
 * the model's output tokens; beyond this a stream is broken or hostile, and buffering on would grow the
 * process without bound (a 1.5 GB line once took the heap to 684 MB, then failed as "Invalid string length").
 */
export const MAX_SSE_EVENT_CHARS = 16 * 2 ** 20;

/** Called once per event: its `event:` field (undefined when absent) and its `data:` lines joined by "\n". */
export type SseEventHandler = (event: string | undefined, data: string) => void;

const LF = 10;
const CR = 13;
const SPACE = 32;

export class SseParser {
	private readonly decoder = new TextDecoder("utf-8");
	/** The start of a line whose end has not arrived yet (never contains a line break). */
	private pending = "";
	/** The previous chunk ended with CR: a LF starting the next one belongs to the same line break. */
	private afterCarriageReturn = false;
	private event: string | undefined;
	private data: string | undefined;
	/** Events dispatched so far. */
	eventCount = 0;

	constructor(private readonly onEvent: SseEventHandler) {}

	/** Feeds bytes as they arrive; UTF-8 sequences and lines may be split anywhere. */
	push(bytes: Uint8Array): void {
		this.pushText(this.decoder.decode(bytes, { stream: true }));
	}

	/**
	 * The body ended. An event without its closing blank line is incomplete and dropped, as the
	 * format requires (and as the SDKs do).
	 */
	end(): void {
		this.pushText(this.decoder.decode());
		this.pending = "";
		this.event = undefined;
		this.data = undefined;
	}

	pushText(text: string): void {
		if (text === "") return;
		let pos = 0;
		if (this.afterCarriageReturn) {
			this.afterCarriageReturn = false;
			if (text.charCodeAt(0) === LF) pos = 1;
		}
		const hasCarriageReturn = text.indexOf("\r", pos) !== -1;
		while (pos < text.length) {
			const end = hasCarriageReturn ? lineBreak(text, pos) : text.indexOf("\n", pos);
			if (end === -1) break;
			if (this.pending !== "") {
				this.line(this.pending + text.slice(pos, end));
				this.pending = "";
			} else {
				this.line(pos === end ? "" : text.slice(pos, end));
			}
			pos = end + 1;
			if (text.charCodeAt(end) === CR) {
				if (pos === text.length) this.afterCarriageReturn = true;
				else if (text.charCodeAt(pos) === LF) pos++;
			}
		}
		// The rest has no line break: kept as a (cheap, unflattened) concatenation until its line ends.
		if (pos < text.length) {
			this.pending += pos === 0 ? text : text.slice(pos);
			if (this.pending.length + (this.data?.length ?? 0) > MAX_SSE_EVENT_CHARS) throw eventTooLarge();
		}
	}

	private line(line: string): void {
		if (line === "") {
			this.dispatch();
			return;
		}
		const colon = line.indexOf(":");
		if (colon === 0) return; // a comment (keep-alive)
		const field = colon === -1 ? line : line.slice(0, colon);
		let value = "";
		if (colon !== -1) {
			const start = line.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1;
			value = start >= line.length ? "" : line.slice(start);
		}
		if (field === "data") {
			this.data = this.data === undefined ? value : `${this.data}\n${value}`;
			if (this.data.length > MAX_SSE_EVENT_CHARS) throw eventTooLarge();
		}
		else if (field === "event") this.event = value;
		// id and retry mean nothing to a single request; unknown fields are ignored by the format.
	}

	private dispatch(): void {
		const { event, data } = this;
		this.event = undefined;
		this.data = undefined;
		if (data === undefined && !event) return;
		this.eventCount++;
		this.onEvent(event || undefined, data ?? "");
	}
}

function eventTooLarge(): ProviderStreamError {
	return new ProviderStreamError(
		`The response stream sent an event larger than ${MAX_SSE_EVENT_CHARS / 2 ** 20} MB (a line without a line break, or data without the blank line that ends an event); it is not a valid event stream, so the request was stopped.`,
	);
}

/** Index of the next CR or LF at or after `from`, or -1. */
function lineBreak(text: string, from: number): number {
	for (let i = from; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code === LF || code === CR) return i;
	}
	return -1;
}
