import { describe, expect, it } from "vitest";
import { callInOrder, OrderedDelivery } from "../../../src/core/engine/event-delivery.js";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("OrderedDelivery", () => {
	it("delivers at once, without a promise, while the handler is synchronous", () => {
		const seen: number[] = [];
		const delivery = new OrderedDelivery<number>((event) => {
			seen.push(event);
		});
		expect(delivery.deliver(1)).toBeUndefined();
		expect(delivery.deliver(2)).toBeUndefined();
		expect(seen).toEqual([1, 2]);
	});

	it("holds later events until an asynchronous handler is done, then keeps the order", async () => {
		const log: string[] = [];
		const delivery = new OrderedDelivery<number>(async (event) => {
			log.push(`start ${event}`);
			if (event === 1) await tick();
			log.push(`end ${event}`);
		});
		const first = delivery.deliver(1);
		const second = delivery.deliver(2);
		expect(first).toBeInstanceOf(Promise);
		expect(second).toBeInstanceOf(Promise);
		expect(log).toEqual(["start 1"]);
		await Promise.all([first, second]);
		expect(log).toEqual(["start 1", "end 1", "start 2", "end 2"]);
		// Idle again: delivered at once (an async handler still hands back its promise).
		const third = delivery.deliver(3);
		expect(log.slice(-2)).toEqual(["start 3", "end 3"]);
		await third;
		expect(log.slice(-2)).toEqual(["start 3", "end 3"]);
	});

	it("rejects the event whose handler failed, and still delivers the ones after it", async () => {
		const seen: number[] = [];
		const delivery = new OrderedDelivery<number>((event) => {
			if (event === 1) throw new Error("listener broke");
			if (event === 2) return Promise.reject(new Error("async listener broke"));
			seen.push(event);
		});
		await expect(delivery.deliver(1)).rejects.toThrow("listener broke");
		await expect(delivery.deliver(2)).rejects.toThrow("async listener broke");
		await delivery.deliver(3);
		expect(seen).toEqual([3]);
	});

	it("delivers an event given from inside the handler after the current one is done", async () => {
		const log: string[] = [];
		let release = () => {};
		const delivery: OrderedDelivery<string> = new OrderedDelivery<string>((event) => {
			log.push(`start ${event}`);
			if (event === "outer") {
				void delivery.deliver("inner");
				log.push("outer handed inner over");
				return new Promise<void>((resolve) => (release = resolve)).then(() => {
					log.push("end outer");
				});
			}
			log.push(`end ${event}`);
		});
		const outer = delivery.deliver("outer");
		const later = delivery.deliver("later");
		await tick();
		expect(log).toEqual(["start outer", "outer handed inner over"]);
		release();
		await Promise.all([outer, later]);
		expect(log).toEqual(["start outer", "outer handed inner over", "end outer", "start inner", "end inner", "start later", "end later"]);
	});
});

describe("callInOrder", () => {
	it("calls listeners in order, awaiting one that returns a promise before the next", async () => {
		const log: string[] = [];
		const listeners = [
			() => {
				log.push("a");
			},
			async () => {
				await tick();
				log.push("b");
			},
			() => {
				log.push("c");
			},
		];
		expect(callInOrder(listeners.slice(0, 1), (listener) => listener())).toBeUndefined();
		const pending = callInOrder(listeners, (listener) => listener());
		expect(log).toEqual(["a", "a"]);
		await pending;
		expect(log).toEqual(["a", "a", "b", "c"]);
	});
});
