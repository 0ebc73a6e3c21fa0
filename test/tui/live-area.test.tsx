import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import { LiveArea } from "../../src/tui/components/LiveArea.js";
import { streamingRows } from "../../src/tui/screen/live-rows.js";
import { liveBudget, planToolRows } from "../../src/tui/screen/live-layout.js";
import type { ActiveAssistant, ToolRunView } from "../../src/tui/transcript/view-model.js";
import { builtinTools } from "../support/builtin-tools.js";
import { plain } from "./render-helpers.js";
import { stripVTControlCharacters as strip } from "node:util";

function active(tail: string, thinking = ""): ActiveAssistant {
	return { messageId: "m1", turn: 1, thinking, thinkingSeen: thinking !== "", committedText: "", tail, scanned: 0, textBlocks: 1 };
}

function bash(id: string, overrides: Partial<ToolRunView> = {}): ToolRunView {
	return { id, name: "bash", status: "running", argsPreview: `cmd ${id}`, startedAt: 0, progressText: "1\n2\n3\n4\n5\n6", ...overrides };
}

function frame(props: Parameters<typeof LiveArea>[0]): string[] {
	const { lastFrame, unmount } = render(<LiveArea tools={builtinTools} {...props} />);
	const text = plain(lastFrame());
	unmount();
	return text === "" ? [] : text.split("\n");
}

describe("streamingRows", () => {
	it("returns the last rows of the rendered tail, wrapped to the width", () => {
		const tail = Array.from({ length: 50 }, (_, i) => `word${i}`).join(" ");
		const rows = streamingRows(tail, 20, 3).map((row) => strip(row));
		expect(rows).toHaveLength(3);
		expect(rows.every((row) => row.length <= 20)).toBe(true);
		expect(rows[2]).toContain("word49");
	});

	it("re-opens a code fence when the rows shown start inside it", () => {
		const tail = `\`\`\`ts\n${Array.from({ length: 40 }, (_, i) => `const v${i} = ${i};`).join("\n")}`;
		const rows = streamingRows(tail, 80, 5).map((row) => strip(row));
		expect(rows).toEqual(["const v36 = 36;", "const v37 = 37;", "const v38 = 38;", "const v39 = 39;", "```"]);
	});
});

describe("planToolRows", () => {
	it("gives every row its header, then result lines top-down while rows remain", () => {
		const plan = planToolRows([bash("a"), bash("b"), bash("c")], 9, builtinTools);
		expect(plan.rows.map((row) => row.lines.length)).toEqual([5, 1, 0]);
		expect(plan.height).toBe(9);
	});

	it("summarises the rows that do not fit", () => {
		const plan = planToolRows(Array.from({ length: 10 }, (_, i) => bash(String(i))), 4, builtinTools);
		expect(plan.rows).toHaveLength(3);
		expect(plan.hidden).toBe(7);
		expect(plan.height).toBe(4);
	});

	it("keeps a row free of the terminal height for Ink", () => {
		expect(liveBudget({ rows: 24, editor: 3, footer: 2, queued: 1 })).toBe(17);
		expect(liveBudget({ rows: 5, editor: 3, footer: 2, queued: 1 })).toBe(0);
	});
});

describe("LiveArea", () => {
	it("is never taller than its budget, whatever streams", () => {
		const long = Array.from({ length: 300 }, (_, i) => `Sentence number ${i} of a very long paragraph that keeps going.`).join(" ");
		for (const budget of [1, 2, 5, 12]) {
			expect(frame({ active: active(long), runs: [], now: 0, width: 40, budget }).length).toBeLessThanOrEqual(budget);
			expect(frame({ active: active(long, "thinking ".repeat(200)), runs: [bash("a"), bash("b")], now: 0, width: 40, budget }).length).toBeLessThanOrEqual(budget);
		}
	});

	it("shows the tail of the streaming text and the tool rows in source order", () => {
		const lines = frame({ active: undefined, runs: [bash("a", { status: "done", endedAt: 500, resultText: "ok", details: { exitCode: 0 } }), bash("b")], now: 1000, width: 60, budget: 20 });
		expect(lines[0]).toBe("");
		expect(lines[1]).toMatch(/^✓ bash cmd a 0\.5s/);
		expect(lines.findIndex((line) => line.includes("cmd b"))).toBeGreaterThan(1);
	});

	it("shows the thinking dimmed until the answer starts, and the tool call being written", () => {
		const thinkingOnly = frame({ active: active("", "step one\nstep two"), runs: [], now: 0, width: 60, budget: 10 });
		expect(thinkingOnly.join("\n")).toContain("✻ step one");
		const writing = frame({ active: { ...active(""), pendingToolCall: { name: "write", chars: 3000 } }, runs: [], now: 0, width: 60, budget: 10 });
		expect(writing.join("\n")).toContain("write call being written (2.9 KB)");
	});

	it("renders nothing when idle", () => {
		expect(frame({ active: undefined, runs: [], now: 0, width: 60, budget: 10 })).toEqual([]);
	});

	it("draws a tool row's lines once per render: the rows the plan counted are the rows shown", () => {
		const resultLines = vi.fn(() => [{ text: "first", style: "plain" as const }, { text: "second", style: "plain" as const }]);
		const run = { ...bash("a", { status: "done" }), name: "probe" };
		const rows = frame({ active: undefined, runs: [run], now: 0, width: 60, budget: 10, tools: [{ name: "probe", resultLines }] });
		expect(rows.map((row) => row.trim()).slice(-2)).toEqual(["first", "second"]);
		expect(resultLines).toHaveBeenCalledTimes(1);
	});
});
