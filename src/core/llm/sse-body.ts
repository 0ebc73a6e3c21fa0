// Reads a streaming HTTP response body as Server-Sent Events, reporting every received chunk (keep-alives
// included) so the idle timeout measures silence on the wire, not silence in content.
import { ProviderStreamError } from "./provider-error.js";
import { type SseEventHandler, SseParser } from "./sse-parser.js";

/**
 * Longest stretch of reading without giving the event loop a turn. Chunks already buffered are read in
 * microtasks only, so a stream arriving faster than it is handled would otherwise hold off every timer and
 * every other I/O (the screen's renders, keystrokes) until it ends.
 */
const YIELD_EVERY_MS = 8;

/**
 * Resolves when the body has ended and every complete event was handled. Rejects with the read error
 * (a cut connection, an abort) or with whatever `onEvent` throws; the body is cancelled then, so the
 * connection is released at once.
 */
export async function readSseBody(response: Response, onBytes: () => void, onEvent: SseEventHandler): Promise<void> {
	if (!response.body) throw new ProviderStreamError("The provider answered without a response body.");
	const reader = response.body.getReader();
	const parser = new SseParser(onEvent);
	let finished = false;
	let yielded = performance.now();
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			onBytes();
			parser.push(value);
			if (performance.now() - yielded >= YIELD_EVERY_MS) {
				await new Promise((resolve) => setImmediate(resolve));
				yielded = performance.now();
			}
		}
		parser.end();
		finished = true;
	} finally {
		if (!finished) reader.cancel().catch(() => {});
	}
}
