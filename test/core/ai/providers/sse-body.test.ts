import { describe, expect, it } from "vitest";
import { readSseBody } from "../../../../src/core/ai/providers/sse-body.js";
import { preloadModelSdk } from "../../../../src/core/ai/stream-model.js";

function bufferedResponse(chunks: string[]): Response {
	const encoder = new TextEncoder();
	// Everything is queued before reading starts, as when a stream arrives faster than it is handled.
	const body = new ReadableStream<Uint8Array>({
		start(controller) {
			for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
			controller.close();
		},
	});
	return new Response(body);
}

describe("readSseBody", () => {
	it("reports every chunk and every event, in order", async () => {
		let chunks = 0;
		const events: string[] = [];
		await readSseBody(bufferedResponse([": ping\n\n", "data: a\n\nda", "ta: b\n\n"]), "openai-completions", () => chunks++, (_event, data) => events.push(data));
		expect(chunks).toBe(3);
		expect(events).toEqual(["a", "b"]);
	});

	it("gives timers their turn while it reads a long stream that is already buffered", async () => {
		let timerFiredAt = -1;
		let handled = 0;
		setTimeout(() => (timerFiredAt = handled), 10);
		const chunks = Array.from({ length: 2000 }, (_, i) => `data: ${i}\n\n`);
		await readSseBody(bufferedResponse(chunks), "openai-completions", () => {}, () => {
			handled++;
			const until = performance.now() + 0.1;
			while (performance.now() < until);
		});
		expect(handled).toBe(2000);
		// Without yielding, the timer could only fire once everything was read.
		expect(timerFiredAt).toBeGreaterThan(0);
		expect(timerFiredAt).toBeLessThan(2000);
	});

	it("cancels the body when a handler throws, and rejects with that error", async () => {
		let cancelled = false;
		const body = new ReadableStream<Uint8Array>({
			pull(controller) {
				controller.enqueue(new TextEncoder().encode("data: {bad\n\n"));
			},
			cancel() {
				cancelled = true;
			},
		});
		await expect(readSseBody(new Response(body), "openai-completions", () => {}, (_event, data) => JSON.parse(data))).rejects.toThrow(SyntaxError);
		expect(cancelled).toBe(true);
	});
});

describe("preloadModelSdk", () => {
	it("loads the SDK of each supported API and ignores others, never rejecting", async () => {
		await expect(preloadModelSdk({ api: "openai-completions" })).resolves.toBeUndefined();
		await expect(preloadModelSdk({ api: "anthropic-messages" })).resolves.toBeUndefined();
		await expect(preloadModelSdk({ api: "none" })).resolves.toBeUndefined();
	});
});
