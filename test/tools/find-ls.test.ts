// The find and ls tools on real files: globs over paths with .gitignore respected, a folder's listing with
// kinds and sizes, limits and errors.
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createFindTool, createLsTool } from "../../src/tools/index.js";
import { projectTree } from "../support/project-tree.js";
import { callTool } from "./tool-call.js";

const PROJECT = {
	".gitignore": "node_modules/\ncoverage/\n",
	".github/workflows/ci.yml": "on: push\n",
	"node_modules/dep/index.ts": "",
	"coverage/report.ts": "",
	"src/index.ts": "export {};\n",
	"src/util/strings.ts": "",
	"src/util/strings.test.ts": "",
	"README.md": "# Demo\n",
	"empty/": "",
};

const find = (cwd: string, params: Record<string, unknown>, signal?: AbortSignal) => callTool(createFindTool(cwd), params, signal);
const ls = (cwd: string, params: Record<string, unknown>) => callTool(createLsTool(cwd), params);

describe("find", () => {
	it("matches a glob without a slash against names at any depth, hidden folders included, ignored ones not", async () => {
		const cwd = projectTree(PROJECT);
		const { text, details } = await find(cwd, { pattern: "*.ts" });
		expect(text).toBe("src/index.ts\nsrc/util/strings.test.ts\nsrc/util/strings.ts");
		expect(details).toEqual({ found: 3, limitReached: false, truncated: false });
		expect((await find(cwd, { pattern: "*.yml" })).text).toBe(".github/workflows/ci.yml");
	});

	it("matches a glob with a slash against the path from the folder searched, and marks folders with /", async () => {
		const cwd = projectTree(PROJECT);
		expect((await find(cwd, { pattern: "src/*" })).text).toBe("src/index.ts\nsrc/util/");
		expect((await find(cwd, { pattern: "**/*.test.ts" })).text).toBe("src/util/strings.test.ts");
		expect((await find(cwd, { pattern: "util/*.ts", path: "src" })).text).toBe("src/util/strings.test.ts\nsrc/util/strings.ts");
		expect((await find(cwd, { pattern: "index.ts", path: "node_modules" })).text).toBe("node_modules/dep/index.ts");
	});

	it("stops at limit paths, and says when nothing matches", async () => {
		const cwd = projectTree(PROJECT);
		const limited = await find(cwd, { pattern: "**", limit: 2 });
		expect(limited.text).toBe(".github/\n.github/workflows/\n\n[Stopped at 2 paths (limit). Narrow the pattern or path, or raise limit, to see more.]");
		expect(limited.details).toMatchObject({ found: 2, limitReached: true });
		expect((await find(cwd, { pattern: "*.rs" })).text).toBe("Nothing matches *.rs in . (paths .gitignore excludes were not searched).");
	});

	it("refuses a file as the folder to search, and stops when aborted", async () => {
		const cwd = projectTree(PROJECT);
		await expect(find(cwd, { pattern: "*", path: "README.md" })).rejects.toThrow("README.md is a file, not a folder: find searches folders.");
		await expect(find(cwd, { pattern: "*" }, AbortSignal.abort())).rejects.toThrow("find aborted.");
	});
});

describe("ls", () => {
	it("lists every entry of one folder in name order, hidden and ignored ones too, with kinds marked", async () => {
		const cwd = projectTree(PROJECT);
		symlinkSync(join(cwd, "src"), join(cwd, "source"));
		const { text, details } = await ls(cwd, {});
		expect(text).toBe([".github/", ".gitignore", "README.md", "coverage/", "empty/", "node_modules/", "source@", "src/"].join("\n"));
		expect(details).toEqual({ entries: 8, limitReached: false, truncated: false });
		expect((await ls(cwd, { path: "src" })).text).toBe("index.ts\nutil/");
	});

	it("adds file sizes on request, and stops at limit", async () => {
		const cwd = projectTree({ "a.txt": "x".repeat(2048), "b.txt": "hi", "c/": "" });
		expect((await ls(cwd, { sizes: true })).text).toBe("a.txt  2.0 KB\nb.txt  2 B\nc/");
		const limited = await ls(cwd, { limit: 2 });
		expect(limited.text).toBe("a.txt\nb.txt\n\n[Showing the first 2 entries (limit). Raise limit to see more, or use find with a pattern.]");
		expect(limited.details).toMatchObject({ entries: 2, limitReached: true });
		expect((await ls(cwd, { limit: 3 })).details).toMatchObject({ entries: 3, limitReached: false });
	});

	it("says a folder is empty, and refuses a file or a missing path with what to do", async () => {
		const cwd = projectTree(PROJECT);
		expect((await ls(cwd, { path: "empty" })).text).toBe("empty is empty.");
		await expect(ls(cwd, { path: "README.md" })).rejects.toThrow("README.md is a file, not a folder. Read it with read.");
		await expect(ls(cwd, { path: "missing" })).rejects.toThrow("Path not found: missing");
	});
});
