import { describe, expect, it } from "vitest";
import { EventStream } from "../../../src/core/ai/event-stream.js";

function numbers(): EventStream<number, number> {
	return new EventStream<number, number>(
		(event) => event < 0,
		(event) => event,
	);
}

describe("EventStream", () => {
	it("iterates pushed events in order and resolves its result at the completing event", async () => {
		const stream = numbers();
		stream.push(1);
		setTimeout(() => {
			stream.push(2);
			stream.push(-1);
		}, 1);
		const seen: number[] = [];
		for await (const event of stream) seen.push(event);
		expect(seen).toEqual([1, 2, -1]);
		expect(await stream.result()).toBe(-1);
	});

	it("hands a batch consumer everything queued at once, and wakes it for more", async () => {
		const stream = numbers();
		stream.push(1);
		stream.push(2);
		expect(stream.takeQueued()).toEqual([1, 2]);
		expect(stream.takeQueued()).toEqual([]);
		expect(stream.drained).toBe(false);

		let woke = false;
		const ready = stream.whenReady().then(() => (woke = true));
		await Promise.resolve();
		expect(woke).toBe(false);
		stream.push(3);
		await ready;
		expect(stream.takeQueued()).toEqual([3]);

		stream.push(4);
		stream.push(-1);
		// Pushed after the end: ignored.
		stream.push(5);
		await stream.whenReady();
		expect(stream.drained).toBe(false);
		expect(stream.takeQueued()).toEqual([4, -1]);
		expect(stream.drained).toBe(true);
		await stream.whenReady();
	});

	it("wakes a waiting batch consumer when the stream ends without a completing event", async () => {
		const stream = numbers();
		const ready = stream.whenReady();
		stream.end(7);
		await ready;
		expect(stream.drained).toBe(true);
		expect(await stream.result()).toBe(7);
	});

	it("tells a producer to wait while a consumer that takes events is `limit` or more behind, until it takes them", async () => {
		const stream = numbers();
		stream.push(1);
		stream.push(2);
		// Nobody takes events yet (a caller may only await result()): never a reason to wait.
		expect(stream.behind(2)).toBeUndefined();
		expect(stream.takeQueued()).toEqual([1, 2]);
		stream.push(3);
		expect(stream.behind(2)).toBeUndefined();
		stream.push(4);
		const behind = stream.behind(2);
		let caughtUp = false;
		void behind?.then(() => (caughtUp = true));
		await Promise.resolve();
		expect(caughtUp).toBe(false);
		expect(stream.takeQueued()).toEqual([3, 4]);
		await behind;
		expect(stream.behind(2)).toBeUndefined();
	});

	it("lets a paced producer go on when an iterating consumer takes an event, or when the stream ends", async () => {
		const stream = numbers();
		const iterator = stream[Symbol.asyncIterator]();
		stream.push(1);
		stream.push(2);
		await iterator.next();
		stream.push(3);
		const behind = stream.behind(2);
		expect(behind).toBeDefined();
		await iterator.next();
		await behind;

		stream.push(4);
		const ending = stream.behind(2);
		expect(ending).toBeDefined();
		stream.end(9);
		await ending;
	});
});
