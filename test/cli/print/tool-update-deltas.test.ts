import { describe, expect, it } from "vitest";
import { ToolUpdateDeltas, overlapStart } from "../../../src/cli/print/tool-update-deltas.js";

function update(text: string, toolCallId = "c1") {
	return { type: "tool_execution_update" as const, toolCallId, toolName: "bash", args: { command: "x" }, partialResult: { content: [{ type: "text" as const, text }], details: { totalBytes: text.length } } };
}

describe("tool update deltas", () => {
	it("finds where the new progress text continues the previous one", () => {
		expect(overlapStart("", "a")).toBe(0);
		expect(overlapStart("line 1\nline 2\n", "line 1\nline 2\nline 3\n")).toBe(0);
		// A window of the latest lines moved on by one.
		expect(overlapStart("line 1\nline 2\n", "line 2\nline 3\n")).toBe(7);
		// A progress line redrawn: nothing shared.
		expect(overlapStart("50%", "60%")).toBe(3);
		// A short overlap (under the probe's length) is found too.
		expect(overlapStart("abc\nxy", "xyz")).toBe(4);
	});

	it("sends each call's new text only, and what to drop; rebuilding gives each progress text", () => {
		const deltas = new ToolUpdateDeltas();
		const texts = ["a\n", "a\nb\n", "b\nc\n", "c\nd\ne\n"];
		const lines = texts.map((text) => deltas.line(update(text)));
		expect(lines.map((line) => [line.drop ?? 0, line.delta])).toEqual([
			[0, "a\n"],
			[0, "b\n"],
			[2, "c\n"],
			[2, "d\ne\n"],
		]);
		let progress = "";
		lines.forEach((line, index) => {
			progress = progress.slice(line.drop ?? 0) + line.delta;
			expect(progress).toBe(texts[index]);
		});
		expect(lines[0]).toEqual({ type: "tool_execution_update", toolCallId: "c1", toolName: "bash", delta: "a\n", details: { totalBytes: 2 } });
		// Calls are apart, and an ended call starts again from nothing.
		expect(deltas.line(update("x", "c2")).delta).toBe("x");
		deltas.end("c1");
		expect(deltas.line(update("c\nd\ne\n")).delta).toBe("c\nd\ne\n");
	});
});
