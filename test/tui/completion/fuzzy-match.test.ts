import { describe, expect, it } from "vitest";
import { fuzzyFilter, fuzzyScore } from "../../../src/tui/completion/fuzzy-match.js";

describe("fuzzy matching", () => {
	it("matches the query's characters in order, ignoring case, and nothing else", () => {
		expect(fuzzyScore("abc", "a-B-c")).toBeDefined();
		expect(fuzzyScore("acb", "abc")).toBeUndefined();
		expect(fuzzyScore("", "anything")).toBe(0);
		expect(fuzzyScore("x", "")).toBeUndefined();
	});

	it("prefers word starts, runs and short texts", () => {
		const paths = ["src/tui/components/Editor.tsx", "src/tui/editor-state.ts", "test/tui/editor.test.tsx", "docs/credits.md"];
		expect(fuzzyFilter(paths, "edst", (p) => p)[0]).toBe("src/tui/editor-state.ts");
		expect(fuzzyFilter(paths, "edtest", (p) => p)[0]).toBe("test/tui/editor.test.tsx");
		expect(fuzzyFilter(paths, "comped", (p) => p)).toEqual(["src/tui/components/Editor.tsx"]);
		expect(fuzzyFilter(paths, "cred", (p) => p)).toEqual(["docs/credits.md"]);
		expect(fuzzyFilter(["a/b/c/d/e/f/g/h/xy.ts", "xy.ts"], "xy", (p) => p)).toEqual(["xy.ts", "a/b/c/d/e/f/g/h/xy.ts"]);
	});

	it("needs every space-separated term to match; an empty query keeps everything in order, up to the limit", () => {
		const items = ["alpha one", "beta two", "alpha two"];
		expect(fuzzyFilter(items, "al tw", (s) => s)).toEqual(["alpha two"]);
		expect(fuzzyFilter(items, "  ", (s) => s, 2)).toEqual(["alpha one", "beta two"]);
	});
});
