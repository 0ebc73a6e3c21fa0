// A consumer of the model's stream that falls behind (its own reader is slow, or it holds the event loop): the
// provider stops reading the response until it catches up, so what waits in memory stays bounded; the server simply
// waits, and none of that time counts as the server's silence.
import { describe, expect, it } from "vitest";
import type { AssistantMessage, AssistantMessageEvent } from "../../../../src/core/index.js";
import { streamModel } from "../../../../src/core/ai/index.js";
import { useScriptedServer } from "../../../support/use-scripted-server.js";
import { context, PROTOCOLS, serverModel, TEST_KEY } from "./helpers.js";

const server = useScriptedServer();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const CHUNK = 8;
/** Untaken events at which the provider stops reading (MAX_UNTAKEN_EVENTS in partial-message.ts). */
const HELD_BACK_AT = 2048;
/** Far more deltas than may wait untaken: eight times as many (CHUNK characters each). */
const TEXT = "many small deltas. ".repeat(Math.ceil((8 * HELD_BACK_AT * CHUNK) / "many small deltas. ".length));
/** Twice the tests' idle timeout (300 ms): the consumer, not the server, is slow for this long. */
const BEHIND_MS = 600;

function textOf(events: AssistantMessageEvent[]): string {
	return events.map((event) => (event.type === "text_delta" ? event.delta : "")).join("");
}

/**
 * Resolves once the provider has stopped reading for the consumer (or the stream ended otherwise): it has read as
 * many deltas as may wait untaken, less the `start` and `text_start` events that wait with them (a reader that takes
 * the response in large pieces reads past that). The `start` event carries the live partial message.
 */
async function heldBack(stream: ReturnType<typeof streamModel>, start: AssistantMessageEvent | undefined): Promise<void> {
	let ended = false;
	void stream.result().then(() => (ended = true));
	const message = (start as { partial?: AssistantMessage } | undefined)?.partial;
	const textRead = () =>
		(message?.content ?? []).reduce((sum, block) => sum + (block.type === "text" ? block.text.length : 0), 0);
	await expect.poll(() => ended || textRead() >= (HELD_BACK_AT - 2) * CHUNK, { timeout: 30_000 }).toBe(true);
}

/** Holds the event loop, as a consumer doing synchronous work does (drawing a huge frame). */
function busyFor(ms: number): void {
	const end = performance.now() + ms;
	while (performance.now() < end) {}
}

// Each test reads 130 kB of deltas while sharing the event loop with the server: a few seconds on a busy machine.
describe.each(PROTOCOLS)("%s with a consumer that falls behind", { timeout: 60_000 }, (api) => {
	it("stops reading while the consumer is behind, past the idle timeout, and delivers everything once it reads on", async () => {
		server.enqueue({ text: TEXT, chunkSize: CHUNK });
		const stream = streamModel(serverModel(server, api), context(), { apiKey: TEST_KEY, idleTimeoutMs: 300 });
		const events: AssistantMessageEvent[] = [];
		await stream.whenReady();
		events.push(...stream.takeQueued());
		// The provider reads until that many events wait untaken, then stops; the consumer stays behind past the
		// idle timeout.
		await heldBack(stream, events[0]);
		await sleep(BEHIND_MS);
		const waiting = stream.takeQueued();
		expect(waiting.length).toBeGreaterThan(0);
		expect(waiting.length).toBeLessThan(TEXT.length / CHUNK / 4);
		events.push(...waiting);
		while (!stream.drained) {
			await stream.whenReady();
			events.push(...stream.takeQueued());
		}
		const message = await stream.result();
		expect(message.errorMessage).toBeUndefined();
		expect(message.stopReason).toBe("stop");
		expect(textOf(events)).toBe(TEXT);
	});

	it("counts no time a consumer holding the event loop spends as the server's silence", async () => {
		server.enqueue({ text: TEXT, chunkSize: CHUNK });
		const stream = streamModel(serverModel(server, api), context(), { apiKey: TEST_KEY, idleTimeoutMs: 300 });
		const events: AssistantMessageEvent[] = [];
		let held = false;
		while (!stream.drained) {
			await stream.whenReady();
			const taken = stream.takeQueued();
			events.push(...taken);
			if (!held && taken.some((event) => event.type === "text_delta")) {
				// In a task of its own, so the provider is between reads: loom reads nothing meanwhile, and what
				// the server sends waits in the socket.
				held = true;
				await new Promise<void>((resolve) => setTimeout(() => resolve(busyFor(BEHIND_MS))));
			}
		}
		const message = await stream.result();
		expect(message.errorMessage).toBeUndefined();
		expect(textOf(events)).toBe(TEXT);
	});

	it("ends as aborted when stopped while waiting for the consumer", async () => {
		server.enqueue({ text: TEXT, chunkSize: CHUNK });
		const abort = new AbortController();
		const stream = streamModel(serverModel(server, api), context(), { apiKey: TEST_KEY, signal: abort.signal });
		await stream.whenReady();
		await heldBack(stream, stream.takeQueued()[0]);
		abort.abort();
		const message = await stream.result();
		expect(message.stopReason).toBe("aborted");
	});

	it("never holds back a caller that only awaits the result", async () => {
		server.enqueue({ text: TEXT, chunkSize: CHUNK });
		const message = await streamModel(serverModel(server, api), context(), { apiKey: TEST_KEY }).result();
		expect(message.content).toEqual([{ type: "text", text: TEXT }]);
	});
});
