import { describe, expect, it } from "vitest";
import { planSteps } from "../../../src/plugs/index.js";

describe("planSteps", () => {
	it("takes the items of the plan's first numbered list only, with their continuation lines skipped", () => {
		const plan = [
			"# Plan",
			"",
			"1. Parse the flag",
			"   (in args.ts)",
			"",
			"2. [ ] Read the file",
			"",
			"How to check:",
			"",
			"1. Run the tests",
			"2. Try it by hand",
		].join("\n");
		expect(planSteps(plan, undefined)).toEqual(["Parse the flag", "Read the file"]);
	});

	it("falls back to the first bulleted list, then to one step; given steps win", () => {
		expect(planSteps("Do this:\n- one\n- two\n\nThen:\n- three", undefined)).toEqual(["one", "two"]);
		expect(planSteps("Just do it.", undefined)).toEqual(["Carry out the plan"]);
		expect(planSteps("1. a", ["x", " [x] y "])).toEqual(["x", "y"]);
	});
});
