import { describe, expect, it } from "vitest";
import { planLiveArea } from "../../../src/tui/screen/live-layout.js";
import type { ToolRunView } from "../../../src/tui/transcript/view-model.js";

function run(id: string): ToolRunView {
	return { id, name: "custom", status: "running", argsPreview: id, startedAt: 0 };
}

const none = { pending: false, hasThinking: false, hasText: false, runs: [] };

describe("planLiveArea", () => {
	it("gives the streaming text all rows below the margin when nothing else is live", () => {
		expect(planLiveArea({ ...none, budget: 10, hasText: true })).toMatchObject({ margin: 1, pendingRows: 0, thinkingRows: 0, textRows: 9 });
	});

	it("keeps one thinking row beside streaming text, up to three alone", () => {
		expect(planLiveArea({ ...none, budget: 10, hasThinking: true, hasText: true })).toMatchObject({ thinkingRows: 1, textRows: 8 });
		expect(planLiveArea({ ...none, budget: 10, hasThinking: true })).toMatchObject({ thinkingRows: 3, textRows: 0 });
	});

	it("puts the call being written and the tool rows before thinking and text", () => {
		const plan = planLiveArea({ budget: 5, pending: true, hasThinking: true, hasText: true, runs: [run("a"), run("b"), run("c")] });
		expect(plan).toMatchObject({ pendingRows: 1, thinkingRows: 0, textRows: 0 });
		expect(plan.tools.height).toBe(3);
	});

	it("has no room for anything within the margin alone", () => {
		expect(planLiveArea({ budget: 1, pending: true, hasThinking: true, hasText: true, runs: [run("a")] })).toMatchObject({ pendingRows: 0, thinkingRows: 0, textRows: 0, tools: { height: 0 } });
	});
});
