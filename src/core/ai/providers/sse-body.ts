// Reads a streaming HTTP response body as Server-Sent Events, reporting each chunk once its events were
// handled (the idle timeout then looks at whether they moved the message forward, and a consumer far behind
// holds the next read back).
import { readBodyStart } from "../../lib/index.js";
import {
	isNonStreamContentType,
	looksLikeNonStreamBody,
	NON_STREAM_READ_LIMIT,
	nonStreamError,
	otherWireFormatError,
	wireApiOf,
} from "./non-stream-body.js";
import { ProviderStreamError } from "./provider-error.js";
import { type SseEventHandler, SseParser } from "./sse-parser.js";

/**
 * Longest stretch of reading without giving the event loop a turn. Chunks already buffered are read in
 * microtasks only, so a stream arriving faster than it is handled would otherwise hold off every timer and
 * every other I/O (the screen's renders, keystrokes) until it ends.
 */
const YIELD_EVERY_MS = 8;

/**
 * Resolves when the body has ended and every complete event was handled. `onChunk` may return a promise: the next
 * read waits for it. Rejects with the read error
 * (a cut connection, an abort) or with whatever `onEvent` throws; the body is cancelled then, so the
 * connection is released at once. A body that is not an event stream (JSON, HTML) rejects with what the
 * server said in it; a stream whose first event is another wire API's than `api` rejects saying so.
 */
export async function readSseBody(response: Response, api: string, onChunk: () => unknown, onEvent: SseEventHandler): Promise<void> {
	if (!response.body) throw new ProviderStreamError("The provider answered without a response body.");
	const contentType = response.headers.get("content-type") ?? "";
	if (isNonStreamContentType(contentType)) throw nonStreamError(await readBodyStart(response, NON_STREAM_READ_LIMIT), contentType);
	const reader = response.body.getReader();
	// The first event that tells a wire format is checked to be `api`'s before any reaches the reader.
	let formatKnown = false;
	const parser = new SseParser((event, data) => {
		if (!formatKnown) {
			const found = wireApiOf(event, data);
			formatKnown = found !== undefined;
			const wrong = found && otherWireFormatError(api, found);
			if (wrong) throw wrong;
		}
		onEvent(event, data);
	});
	// The body's start, kept until the first event: when none ever comes, it tells what the server sent instead.
	let start: Uint8Array[] | undefined = [];
	let startBytes = 0;
	let finished = false;
	let yielded = performance.now();
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			if (start && startBytes < NON_STREAM_READ_LIMIT) {
				start.push(value);
				startBytes += value.length;
			}
			parser.push(value);
			if (parser.eventCount > 0) start = undefined;
			// The consumer is far behind: read on once it has caught up (the server waits meanwhile).
			const behind = onChunk();
			if (behind instanceof Promise) {
				await behind;
				yielded = performance.now();
			} else if (performance.now() - yielded >= YIELD_EVERY_MS) {
				await new Promise((resolve) => setImmediate(resolve));
				yielded = performance.now();
			}
		}
		parser.end();
		finished = true;
		if (start && parser.eventCount === 0) {
			const text = new TextDecoder().decode(Buffer.concat(start));
			if (looksLikeNonStreamBody(text)) throw nonStreamError(text, contentType);
		}
	} finally {
		if (!finished) reader.cancel().catch(() => {});
	}
}
