import { describe, expect, it } from "vitest";
import { EventStream } from "../../src/core/event-stream.js";

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
});
