import { describe, expect, it } from "vitest";
import { findClosestLines } from "../../src/tools/edit-hint.js";

describe("findClosestLines", () => {
	it("finds the intended window among many lines that look alike", () => {
		const content = Array.from({ length: 50_000 }, (_, i) => `line ${String(i).padStart(9, "0")}: ordinary text;`).join("\n");
		const closest = findClosestLines(content, "line 000042000: ordinary txet;\nline 000042001: ordinary text;");
		expect(closest?.startLine).toBe(42_001);
		expect(closest?.lines).toEqual(["line 000042000: ordinary text;", "line 000042001: ordinary text;"]);
	});

	it("looks past indentation, curly quotes and a blank first line", () => {
		const content = 'function a() {\n\tconst s = "x";\n}\n\nfunction b() {\n\tconst s = “y”;\n\treturn s;\n}\n';
		const closest = findClosestLines(content, '\n  const s = "y";\n  return t;');
		expect(closest?.startLine).toBe(5);
		expect(closest?.lines[1]).toBe("\tconst s = “y”;");
	});

	it("says nothing when nothing is close", () => {
		expect(findClosestLines("alpha\nbeta\ngamma\n", "zzzz qqqq 1234")).toBeUndefined();
	});
});
