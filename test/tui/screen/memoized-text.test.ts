import { describe, expect, it } from "vitest";
import { memoizedText } from "../../../src/tui/screen/memoized-text.js";

describe("memoizedText", () => {
	it("gives what the function gives, computing each text once while it is remembered", () => {
		const seen: string[] = [];
		const width = memoizedText((text: string) => {
			seen.push(text);
			return text.length;
		});
		expect([width("abc"), width("de"), width("abc"), width("")]).toEqual([3, 2, 3, 0]);
		expect(width("")).toBe(0);
		expect(seen).toEqual(["abc", "de", ""]);
	});

	it("remembers an undefined result too", () => {
		let calls = 0;
		const nothing = memoizedText((_text: string) => {
			calls++;
			return undefined;
		});
		nothing("x");
		nothing("x");
		expect(calls).toBe(1);
	});

	it("forgets once it holds too many texts, and still gives the right results", () => {
		const seen: string[] = [];
		const upper = memoizedText((text: string) => {
			seen.push(text);
			return text.toUpperCase();
		});
		for (let i = 0; i < 5000; i++) expect(upper(`t${i}`)).toBe(`T${i}`);
		// t0 was forgotten long ago: computed again, right.
		expect(upper("t0")).toBe("T0");
		expect(seen.filter((text) => text === "t0")).toHaveLength(2);
	});
});
