// The batch's pace: --jobs at once, halved and paused on a 429, one more after each task that ends well.
import { describe, expect, it } from "vitest";
import { Pacer } from "../../../src/cli/batch/pacer.js";

describe("Pacer", () => {
	it("starts up to --jobs, halves and pauses on a rate limit, then climbs back one task at a time", () => {
		const pacer = new Pacer(4);
		expect(pacer.wait(3, 0)).toBe(0);
		expect(pacer.wait(4, 0)).toBe(Infinity);
		pacer.rateLimited(2000, 0);
		expect(pacer.limit).toBe(2);
		expect(pacer.wait(1, 500)).toBe(1500);
		expect(pacer.wait(1, 2000)).toBe(0);
		expect(pacer.wait(2, 2000)).toBe(Infinity);
		pacer.rateLimited(1000, 2000);
		pacer.rateLimited(1000, 2000);
		expect(pacer.limit).toBe(1);
		for (let i = 0; i < 5; i++) pacer.succeeded();
		expect(pacer.limit).toBe(4);
	});
});
