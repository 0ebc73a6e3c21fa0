// Reads a streaming HTTP response body as Server-Sent Events, reporting every received chunk (keep-alives
// included) so the idle timeout measures silence on the wire, not silence in content.
import { ProviderStreamError } from "./provider-error.js";
import { type SseEventHandler, SseParser } from "./sse-parser.js";

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
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			onBytes();
			parser.push(value);
		}
		parser.end();
		finished = true;
	} finally {
		if (!finished) reader.cancel().catch(() => {});
	}
}
