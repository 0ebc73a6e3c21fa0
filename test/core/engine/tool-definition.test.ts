// The generic fallbacks: what loom shows and says for a tool that describes nothing about itself (an
// extension or MCP tool), and for a tool whose own presentation fails; and the one rule for tool names (what
// every provider accepts) and how a pattern names tools.
import { describe, expect, it } from "vitest";
import {
	isValidToolName,
	matchesToolPattern,
	toolNameCharacters,
	type ToolPresentation,
	type ToolRowState,
	toolFileEffects,
	toolPromptGuide,
	toolResultLines,
	toolSummary,
} from "../../../src/core/index.js";

const lines = (tool: ToolPresentation | undefined, row: ToolRowState, max = 8) => toolResultLines(tool, row, max).map((line) => `${line.style}:${line.text}`);

describe("a tool that says nothing about itself", () => {
	it("is summarised by its arguments as compact JSON on one line", () => {
		expect(toolSummary(undefined, { query: "TODO", paths: ["src", "test"] })).toBe('{"query":"TODO","paths":["src","test"]}');
		expect(toolSummary({}, { text: "two\nlines" })).toBe('{"text":"two\\nlines"}');
		expect(toolSummary(undefined, "raw  text\nof a call")).toBe("raw text of a call");
		expect(toolSummary(undefined, undefined)).toBe("");
		expect(toolSummary(undefined, null)).toBe("");
		const circular: Record<string, unknown> = {};
		circular.self = circular;
		expect(toolSummary(undefined, circular)).toBe("");
		const long = toolSummary(undefined, { q: "x".repeat(500) });
		expect(long.length).toBeLessThanOrEqual(200);
		expect(long.endsWith("…")).toBe(true);
	});

	it("shows its text result: a few non-empty lines when done, the last lines in red when failed", () => {
		expect(lines(undefined, { status: "done", resultText: "first\n\nsecond\n" })).toEqual(["dim:first", "dim:second"]);
		expect(lines(undefined, { status: "done", resultText: "1\n2\n3\n4\n5" })).toEqual(["dim:1", "dim:2", "dim:… 3 more lines"]);
		expect(lines(undefined, { status: "done", resultText: "" })).toEqual([]);
		const failure = Array.from({ length: 8 }, (_, i) => `e${i}`).join("\n");
		expect(lines(undefined, { status: "error", resultText: failure })).toEqual(["error:e3", "error:e4", "error:e5", "error:e6", "error:e7"]);
		expect(lines(undefined, { status: "error", resultText: "  " })).toEqual(["error:failed (no message)"]);
	});

	it("shows the last line of its progress while running, and nothing before it runs", () => {
		expect(lines(undefined, { status: "running", progressText: "10%\n20%\n30%" })).toEqual(["dim:30%"]);
		for (const status of ["queued", "preparing", "waiting"] as const) expect(lines(undefined, { status, progressText: "x", resultText: "y" })).toEqual([]);
		expect(lines(undefined, { status: "done", resultText: "a" }, 0)).toEqual([]);
	});

	it("is described in the system prompt by the first sentence of its description", () => {
		expect(toolPromptGuide({ description: "Search files. Long details here." })).toBe("Search files");
		expect(toolPromptGuide({ description: "Ignored.", promptGuide: "say what I do" })).toBe("say what I do");
	});

	it("touches no files as far as compaction knows", () => {
		expect(toolFileEffects(undefined, { path: "a.ts" })).toEqual({ reads: [], changes: [] });
		expect(toolFileEffects({}, { path: "a.ts" })).toEqual({ reads: [], changes: [] });
	});
});

describe("a tool whose own presentation fails", () => {
	const broken: ToolPresentation = {
		summarizeArgs: () => {
			throw new Error("boom");
		},
		resultLines: () => {
			throw new Error("boom");
		},
		updateLines: () => "not lines" as never,
		fileEffects: () => {
			throw new Error("boom");
		},
	};

	it("falls back to the generic summary, lines and file effects instead of breaking the row", () => {
		expect(toolSummary(broken, { a: 1 })).toBe('{"a":1}');
		expect(lines(broken, { status: "done", resultText: "ok" })).toEqual(["dim:ok"]);
		expect(lines(broken, { status: "running", progressText: "step" })).toEqual(["dim:step"]);
		expect(toolFileEffects(broken, { path: "a.ts" })).toEqual({ reads: [], changes: [] });
	});

	it("keeps its lines to the rows allowed, and its file effects to non-empty paths", () => {
		const chatty: ToolPresentation = {
			resultLines: () => Array.from({ length: 10 }, (_, i) => ({ text: `l${i}`, style: "plain" as const })),
			fileEffects: () => ({ reads: ["a.ts", "", 7 as never], changes: undefined as never }),
		};
		expect(lines(chatty, { status: "done" }, 3)).toEqual(["plain:l0", "plain:l1", "plain:l2"]);
		expect(toolFileEffects(chatty, {})).toEqual({ reads: ["a.ts"], changes: [] });
	});

	it("may leave a status to the generic lines by returning undefined", () => {
		const doneOnly: ToolPresentation = { resultLines: (row) => (row.status === "done" ? [{ text: "all good", style: "ok" }] : undefined) };
		expect(lines(doneOnly, { status: "done", resultText: "x" })).toEqual(["ok:all good"]);
		expect(lines(doneOnly, { status: "error", resultText: "bad" })).toEqual(["error:bad"]);
	});
});

describe("a result a language server found new errors in", () => {
	const details = { diagnostics: { count: 2, lines: ["a.ts:1:1 one [1]", "a.ts:2:1 two [2]"] } };
	it('says "2 new errors" above the tool\'s own lines, and lists them when the row is expanded', () => {
		expect(lines(undefined, { status: "done", resultText: "Edited a.ts", details }, 3)).toEqual(["error:2 new errors", "dim:Edited a.ts"]);
		expect(lines(undefined, { status: "done", resultText: "Edited a.ts", details }, 8)).toEqual([
			"error:2 new errors",
			"error:  a.ts:1:1 one [1]",
			"error:  a.ts:2:1 two [2]",
			"dim:Edited a.ts",
		]);
		expect(lines(undefined, { status: "done", resultText: "ok", details: { diagnostics: { count: 1, lines: "bad" } } }, 3)).toEqual(["error:1 new error", "dim:ok"]);
		expect(lines(undefined, { status: "done", resultText: "ok", details: { diagnostics: null } }, 3)).toEqual(["dim:ok"]);
	});
});

describe("tool names", () => {
	it("accepts letters, digits, _ and -, from 1 to 64 characters", () => {
		expect(isValidToolName("mcp__github__create-issue_2")).toBe(true);
		expect(isValidToolName("x".repeat(64))).toBe(true);
		expect(isValidToolName("x".repeat(65))).toBe(false);
		expect(isValidToolName("")).toBe(false);
		expect(isValidToolName("has space")).toBe(false);
		expect(isValidToolName("dotted.name")).toBe(false);
	});

	it("turns any other character into _", () => {
		expect(toolNameCharacters("my server.io/é")).toBe("my_server_io__");
	});

	it("a pattern's * stands for any characters; everything else for itself", () => {
		expect(matchesToolPattern("mcp__github__*", "mcp__github__list")).toBe(true);
		expect(matchesToolPattern("mcp__github__*", "mcp__gitlab__list")).toBe(false);
		expect(matchesToolPattern("a.b", "axb")).toBe(false);
	});
});
