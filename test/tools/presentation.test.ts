// How the built-in tools describe themselves: row summaries of raw arguments, row lines from raw details, the
// files a call touches, and what they give the system prompt.
import { describe, expect, it } from "vitest";
import { findTool, toolFileEffects, toolResultLines, toolSummary, type ToolRowState } from "../../src/core/index.js";
import { buildSystemPrompt } from "../../src/core/session/index.js";
import { builtinTools } from "../support/builtin-tools.js";

const summary = (name: string, args: unknown) => toolSummary(findTool(builtinTools, name), args);
const lines = (name: string, row: ToolRowState, max = 8) => toolResultLines(findTool(builtinTools, name), row, max).map((line) => `${line.style}:${line.text}`);

describe("argument summaries", () => {
	it("summarise each built-in tool by what matters", () => {
		expect(summary("bash", { command: "cd src &&\n  ls -la" })).toBe("cd src && ls -la");
		expect(summary("read", { path: "src/a.ts", offset: 10, limit: 50 })).toBe("src/a.ts:10-59");
		expect(summary("read", { path: "src/a.ts", offset: 10 })).toBe("src/a.ts:10-");
		expect(summary("read", { path: "src/a.ts" })).toBe("src/a.ts");
		expect(summary("read", { file_path: "src/b.ts" })).toBe("src/b.ts");
		expect(summary("write", { path: "out.txt", content: "x".repeat(10_000) })).toBe("out.txt");
		expect(summary("edit", { path: "b.ts", oldText: "a", newText: "b" })).toBe("b.ts");
	});

	it("never trust the raw arguments' shape", () => {
		expect(summary("bash", null)).toBe("");
		expect(summary("bash", { command: 42 })).toBe('{"command":42}');
		expect(summary("read", "not an object")).toBe("not an object");
		expect(summary("read", { path: "a", offset: "ten" })).toBe("a");
		expect(summary("edit", { edits: [] })).toBe('{"edits":[]}');
	});
});

describe("row lines from raw details", () => {
	it("bash reads only fields of the right type: a string exit code or a null one says nothing", () => {
		expect(lines("bash", { status: "done", resultText: "ok", details: { exitCode: "2", timedOut: "yes" } })).toEqual(["dim:ok"]);
		expect(lines("bash", { status: "done", resultText: "ok", details: { exitCode: null, signal: 9 } })).toEqual(["dim:ok"]);
		expect(lines("bash", { status: "done", resultText: "ok", details: "details" })).toEqual(["dim:ok"]);
		expect(lines("bash", { status: "done", resultText: "ok", details: { exitCode: 0, extra: 1 } })).toEqual(["dim:ok", "ok:exit 0"]);
	});

	it("bash keeps its status line when the rows are few, and shows the newest output above it", () => {
		const output = Array.from({ length: 9 }, (_, i) => `line ${i + 1}`).join("\n");
		expect(lines("bash", { status: "error", resultText: output, details: { exitCode: 1 } }, 3)).toEqual(["error:line 8", "error:line 9", "error:exit 1"]);
		expect(lines("bash", { status: "error", resultText: "", details: {} }, 3)).toEqual(["error:failed (no message)"]);
	});

	it("write, read and edit fall back to their result text when details are missing or malformed", () => {
		expect(lines("write", { status: "done", resultText: "Wrote out.txt (3 bytes).", details: { bytes: Number.NaN } })).toEqual(["dim:Wrote out.txt (3 bytes)."]);
		expect(lines("write", { status: "done", resultText: "x", details: { bytes: 12 } })).toEqual(["dim:wrote 12 B"]);
		expect(lines("read", { status: "done", resultText: "a\nb", details: { startLine: "1", endLine: 2 } })).toEqual(["dim:read 2 lines"]);
		expect(lines("read", { status: "done", resultText: "", details: { kind: "image" } })).toEqual(["dim:read image"]);
		expect(lines("edit", { status: "done", resultText: "Edited b.ts: 1 replacement.", details: { diff: 5 } })).toEqual(["dim:Edited b.ts: 1 replacement."]);
	});

	it("file tools show a failure as the generic error lines", () => {
		for (const name of ["read", "edit", "write"]) {
			expect(lines(name, { status: "error", resultText: "File not found: a.ts" })).toEqual(["error:File not found: a.ts"]);
		}
	});
});

describe("files a call touches", () => {
	it("read reads its path; edit and write change theirs, after their own argument aliases", () => {
		const effects = (name: string, args: unknown) => toolFileEffects(findTool(builtinTools, name), args);
		expect(effects("read", { path: "a.ts" })).toEqual({ reads: ["a.ts"], changes: [] });
		expect(effects("read", { file_path: "b.ts" })).toEqual({ reads: ["b.ts"], changes: [] });
		expect(effects("edit", { file_path: "c.ts", old_string: "x", new_string: "y" })).toEqual({ reads: [], changes: ["c.ts"] });
		expect(effects("write", { path: "d.ts", content: "" })).toEqual({ reads: [], changes: ["d.ts"] });
		expect(effects("write", { path: "", content: "" })).toEqual({ reads: [], changes: [] });
		expect(effects("bash", { command: "rm -rf build" })).toEqual({ reads: [], changes: [] });
		expect(findTool(builtinTools, "read")!.readOnly).toBe(true);
		expect(builtinTools.filter((tool) => tool.readOnly).map((tool) => tool.name)).toEqual(["read", "grep", "find", "ls", "bash_output", "bash_kill", "ask_user", "todo_write", "web_fetch", "web_search", "lsp"]);
		expect(effects("grep", { pattern: "x", path: "src" })).toEqual({ reads: [], changes: [] });
	});
});

describe("system prompt parts", () => {
	it("each built-in tool gives its guide, and a rule two tools share is said once", () => {
		const prompt = buildSystemPrompt({ tools: builtinTools, cwd: "/w", date: new Date("2025-02-03T10:00:00Z") });
		expect(prompt).toContain("- read: read a file (text or image); use offset/limit to page through long files\n");
		expect(prompt).toContain("- bash: run a shell command in the working directory");
		expect(prompt.split("Read a file before you change it.")).toHaveLength(2);
		const readOnly = buildSystemPrompt({ tools: [findTool(builtinTools, "read")!], cwd: "/w" });
		expect(readOnly).not.toContain("Read a file before you change it.");
	});
});

describe("the search tools' rows and prompt", () => {
	it("summarise a call by its pattern, place and options", () => {
		expect(summary("grep", { pattern: "TODO\\b", path: "src", glob: "*.ts", ignoreCase: true, context: 2 })).toBe("/TODO\\b/ in src (*.ts) -i -C2");
		expect(summary("grep", { pattern: "a.b", literal: true })).toBe('"a.b"');
		expect(summary("find", { pattern: "**/*.test.ts", path: "test" })).toBe("**/*.test.ts in test");
		expect(summary("find", { pattern: "*.md" })).toBe("*.md");
		expect(summary("ls", { path: "src/tools" })).toBe("src/tools");
		expect(summary("ls", {})).toBe(".");
		expect(summary("grep", { path: 3 })).toBe('{"path":3}');
	});

	it("show how much a finished call found, from details read defensively", () => {
		expect(lines("grep", { status: "done", details: { matches: 12, files: 3, limitReached: false } })).toEqual(["dim:12 matches in 3 files"]);
		expect(lines("grep", { status: "done", details: { matches: 1, files: 1, limitReached: true } })).toEqual(["dim:1 match in 1 file (limit reached)"]);
		expect(lines("grep", { status: "done", resultText: "No matches", details: { matches: 0, files: 0 } })).toEqual(["dim:no matches"]);
		expect(lines("grep", { status: "done", resultText: "a:1:x", details: { matches: "12" } })).toEqual(["dim:a:1:x"]);
		expect(lines("find", { status: "done", details: { found: 40, limitReached: true } })).toEqual(["dim:40 paths (limit reached)"]);
		expect(lines("find", { status: "done", details: { found: 0 } })).toEqual(["dim:nothing found"]);
		expect(lines("ls", { status: "done", details: { entries: 1 } })).toEqual(["dim:1 entry"]);
		expect(lines("ls", { status: "error", resultText: "Path not found: x" })).toEqual(["error:Path not found: x"]);
	});

	it("give the prompt a guide each and their shared rule once", () => {
		const explorer = ["read", "grep", "find", "ls"].map((name) => findTool(builtinTools, name)!);
		const prompt = buildSystemPrompt({ tools: explorer, cwd: "/w" });
		expect(prompt).toContain("- grep: search file contents by regex or literal text, with a glob filter and context lines\n");
		expect(prompt).toContain("- find: find files and folders by glob (e.g. **/*.test.ts)\n");
		expect(prompt).toContain("- ls: list a folder's entries (folders end in /)\n");
		expect(prompt.split("Search and list files with grep, find and ls rather than bash")).toHaveLength(2);
	});
});
