// A consumer of the model's stream that falls behind (its own reader is slow): the provider stops reading the
// response until it catches up, so what waits in memory stays bounded; the server simply waits.
import { describe, expect, it } from "vitest";
import type { AssistantMessageEvent } from "../../../../src/core/index.js";
import { streamModel } from "../../../../src/core/ai/index.js";
import { useScriptedServer } from "../../../support/use-scripted-server.js";
import { context, PROTOCOLS, serverModel, TEST_KEY } from "./helpers.js";

const server = useScriptedServer();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Far more deltas than may wait untaken. */
const TEXT = "many small deltas. ".repeat(20_000);

function textOf(events: AssistantMessageEvent[]): string {
	return events.map((event) => (event.type === "text_delta" ? event.delta : "")).join("");
}

describe.each(PROTOCOLS)("%s with a consumer that falls behind", (api) => {
	it("stops reading while the consumer is behind, past the idle timeout, and delivers everything once it reads on", async () => {
		server.enqueue({ text: TEXT, chunkSize: 8 });
		const stream = streamModel(serverModel(server, api), context(), { apiKey: TEST_KEY, idleTimeoutMs: 300 });
		const events: AssistantMessageEvent[] = [];
		await stream.whenReady();
		events.push(...stream.takeQueued());
		// Behind for longer than the idle timeout: the consumer, not the server, is slow.
		await sleep(1000);
		const waiting = stream.takeQueued();
		expect(waiting.length).toBeGreaterThan(0);
		expect(waiting.length).toBeLessThan(TEXT.length / 8 / 4);
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

	it("ends as aborted when stopped while waiting for the consumer", async () => {
		server.enqueue({ text: TEXT, chunkSize: 8 });
		const abort = new AbortController();
		const stream = streamModel(serverModel(server, api), context(), { apiKey: TEST_KEY, signal: abort.signal });
		await stream.whenReady();
		stream.takeQueued();
		await sleep(300);
		abort.abort();
		const message = await stream.result();
		expect(message.stopReason).toBe("aborted");
	});

	it("never holds back a caller that only awaits the result", async () => {
		server.enqueue({ text: TEXT, chunkSize: 8 });
		const message = await streamModel(serverModel(server, api), context(), { apiKey: TEST_KEY }).result();
		expect(message.content).toEqual([{ type: "text", text: TEXT }]);
	});
});
