// The grep tool on real files: what matches and how lines come back, what is not searched, the limits and
// their notes, and its errors.
import { closeSync, ftruncateSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createGrepTool, MAX_GREP_FILE_BYTES } from "../../src/tools/index.js";
import { projectTree } from "../support/project-tree.js";
import { callTool } from "./tool-call.js";

const SOURCE = {
	".gitignore": "dist/\n*.log\n",
	"src/app.ts": "import { helper } from './helper';\n// TODO: wire the router\nexport const app = helper();\n",
	"src/helper.ts": "export function helper() {\n  return 42; // todo later\n}\n",
	"src/app.test.ts": "it('runs the app (TODO)', () => {});\n",
	"README.md": "# Demo\nTODO write docs\n",
	"dist/app.js": "// TODO built file\n",
	"debug.log": "TODO in a log\n",
};

// The Node walk: the first pass through ripgrep is compared with it in grep-ripgrep.test.ts.
const grep = (cwd: string, params: Record<string, unknown>, signal?: AbortSignal) => callTool(createGrepTool(cwd, { ripgrep: false }), params, signal);

/** A sparse file one byte over the size limit, holding `text` at `at` if given. */
function bigFile(path: string, content?: { at: number; text: string }): void {
	const fd = openSync(path, "w");
	if (content) writeSync(fd, content.text, content.at);
	ftruncateSync(fd, MAX_GREP_FILE_BYTES + 1);
	closeSync(fd);
}

describe("grep", () => {
	it("returns path:line:text for each matching line, skipping what .gitignore excludes", async () => {
		const cwd = projectTree(SOURCE);
		const { text, details } = await grep(cwd, { pattern: "TODO" });
		expect(text).toBe(["README.md:2:TODO write docs", "src/app.test.ts:1:it('runs the app (TODO)', () => {});", "src/app.ts:2:// TODO: wire the router"].join("\n"));
		expect(details).toEqual({ matches: 3, files: 3, searched: 5, limitReached: false, truncated: false });
	});

	it("reads the pattern as a regex, as text with literal, and either regardless of case", async () => {
		const cwd = projectTree(SOURCE);
		expect((await grep(cwd, { pattern: "export (const|function) \\w+" })).text).toBe("src/app.ts:3:export const app = helper();\nsrc/helper.ts:1:export function helper() {");
		expect((await grep(cwd, { pattern: "(TODO)", literal: true })).text).toBe("src/app.test.ts:1:it('runs the app (TODO)', () => {});");
		expect((await grep(cwd, { pattern: "todo", ignoreCase: true, path: "src" })).details.matches).toBe(3);
		expect((await grep(cwd, { pattern: "TODO.", ignoreCase: true, literal: true })).details.matches).toBe(0);
		expect((await grep(cwd, { pattern: "^  return" })).text).toBe("src/helper.ts:2:  return 42; // todo later");
	});

	it("filters files by glob: a name at any depth without a slash, a path from the searched folder with one", async () => {
		const cwd = projectTree(SOURCE);
		expect((await grep(cwd, { pattern: "TODO", glob: "*.md" })).text).toBe("README.md:2:TODO write docs");
		expect((await grep(cwd, { pattern: "TODO", glob: "*.test.ts" })).text).toBe("src/app.test.ts:1:it('runs the app (TODO)', () => {});");
		expect((await grep(cwd, { pattern: "helper", glob: "src/*.ts" })).details.files).toBe(2);
		expect((await grep(cwd, { pattern: "helper", path: "src", glob: "*.ts" })).details.files).toBe(2);
		expect((await grep(cwd, { pattern: "helper", path: "src", glob: "src/*.ts" })).details.files).toBe(0);
	});

	it("shows context lines around matches, merging groups that touch and separating the rest with --", async () => {
		const lines = Array.from({ length: 12 }, (_, i) => (i === 2 || i === 4 || i === 10 ? `hit ${i + 1}` : `line ${i + 1}`));
		const cwd = projectTree({ "a.txt": `${lines.join("\r\n")}\r\n`, "b.txt": "hit b\n" });
		const { text } = await grep(cwd, { pattern: "hit", context: 1 });
		expect(text).toBe(
			["a.txt-2-line 2", "a.txt:3:hit 3", "a.txt-4-line 4", "a.txt:5:hit 5", "a.txt-6-line 6", "--", "a.txt-10-line 10", "a.txt:11:hit 11", "a.txt-12-line 12", "--", "b.txt:1:hit b"].join("\n"),
		);
	});

	it("stops at limit matching lines and says how to see more", async () => {
		const cwd = projectTree({ "a.txt": "x\n".repeat(30), "b.txt": "x\n" });
		const { text, details } = await grep(cwd, { pattern: "x", limit: 25 });
		expect(text.split("\n").filter((line) => line.startsWith("a.txt:"))).toHaveLength(25);
		expect(text).not.toContain("b.txt");
		expect(text).toContain("[Stopped at 25 matching lines (limit). Narrow the pattern, path or glob, or raise limit, to see more.]");
		expect(details).toMatchObject({ matches: 25, files: 1, limitReached: true });
		expect((await grep(cwd, { pattern: "x" })).details.matches).toBe(31);
	});

	it("cuts long lines and the whole output at read's limits, saying so", async () => {
		const cwd = projectTree({ "min.js": `var a="${"x".repeat(2000)}";\n`, "many.txt": Array.from({ length: 3000 }, (_, i) => `match ${i}`).join("\n") });
		const long = await grep(cwd, { pattern: "var a" });
		expect(long.text.split("\n")[0]).toBe(`min.js:1:var a="${"x".repeat(493)}…`);
		expect(long.text).toContain("[Lines over 500 characters are cut (…); read the file for the whole line.]");
		const many = await grep(cwd, { pattern: "match", limit: 5000 });
		expect(many.details).toMatchObject({ matches: 3000, truncated: true });
		expect(many.text.split("\n")[1999]).toBe("many.txt:2000:match 1999");
		expect(many.text).toContain("[Output cut at 2000 lines: 2000 of 3000 lines shown. Narrow the pattern, path or glob, or lower limit.]");
	});

	it("searches one file when path names a file, and skips binary files and files over the size limit, naming those that may hold a match", async () => {
		const cwd = projectTree({ "one.txt": "needle\n", "blob.bin": Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0, 1, 2]) });
		// Over the size limit, sparse: huge.log.txt holds nothing; huge.txt holds the text across two of the pieces it is read in.
		bigFile(join(cwd, "huge.log.txt"));
		bigFile(join(cwd, "huge.txt"), { at: 1024 * 1024 - 3, text: "needle" });
		expect((await grep(cwd, { pattern: "needle", path: "one.txt" })).text).toBe("one.txt:1:needle");
		const { text, details } = await grep(cwd, { pattern: "needle" });
		expect(text).toBe("one.txt:1:needle\n\n[Not searched, over 16.0 MB: huge.txt. Search them with bash (grep) if needed.]");
		// huge.log.txt lacks the text every match holds: it was looked through, so it counts as searched.
		expect(details).toMatchObject({ matches: 1, searched: 3 });
		// Without such a text (any case, an alternation) a file over the limit may match: each is named.
		const named = "one.txt:1:needle\n\n[Not searched, over 16.0 MB: huge.log.txt, huge.txt. Search them with bash (grep) if needed.]";
		expect((await grep(cwd, { pattern: "NEEDLE", ignoreCase: true })).text).toBe(named);
		expect((await grep(cwd, { pattern: "needle|absent" })).text).toBe(named);
	});

	it("finds text as the decoded file reads, whatever its bytes: multibyte text, and U+FFFD where bytes are not UTF-8", async () => {
		// The bytes are looked at for the pattern's text before decoding; a file's invalid bytes decode to U+FFFD,
		// which its bytes do not hold, so such a pattern is matched on the decoded text only.
		const cwd = projectTree({ "bad.txt": Buffer.from([0x61, 0xff, 0x62, 0x0a]), "utf.txt": "naïve café\n", "other.txt": "nothing\n" });
		expect((await grep(cwd, { pattern: "a\uFFFDb", literal: true })).text).toBe("bad.txt:1:a\uFFFDb");
		expect((await grep(cwd, { pattern: "\uFFFD" })).text).toBe("bad.txt:1:a\uFFFDb");
		expect((await grep(cwd, { pattern: "café" })).text).toBe("utf.txt:1:naïve café");
		expect((await grep(cwd, { pattern: "ïve ca[f]é$" })).text).toBe("utf.txt:1:naïve café");
		expect((await grep(cwd, { pattern: "CAFÉ", ignoreCase: true })).details).toMatchObject({ matches: 1, searched: 3 });
	});

	it("shows paths from the working directory, or absolute ones for a folder outside it", async () => {
		const cwd = projectTree({ "src/deep/a.ts": "needle\n" });
		const outside = projectTree({ "b.ts": "needle\n" });
		expect((await grep(cwd, { pattern: "needle", path: "src/deep" })).text).toBe("src/deep/a.ts:1:needle");
		expect((await grep(join(cwd, "src"), { pattern: "needle", path: ".." })).text).toBe(`${cwd}/src/deep/a.ts:1:needle`);
		expect((await grep(cwd, { pattern: "needle", path: outside })).text).toBe(`${outside}/b.ts:1:needle`);
	});

	it("says when nothing matched and how many files were searched", async () => {
		const cwd = projectTree(SOURCE);
		const { text, details } = await grep(cwd, { pattern: "nowhere", glob: "*.ts" });
		expect(text).toBe("No matches in . (*.ts): 3 files searched.");
		expect(details).toMatchObject({ matches: 0, files: 0 });
	});

	it("fails with an actionable message for a bad regex, an empty pattern or glob, and a missing path", async () => {
		const cwd = projectTree(SOURCE);
		await expect(grep(cwd, { pattern: "foo(" })).rejects.toThrow("Invalid regular expression foo(: /foo(/: Unterminated group. Pass literal: true to search for the text as written.");
		await expect(grep(cwd, { pattern: "" })).rejects.toThrow("pattern is empty");
		await expect(grep(cwd, { pattern: "x", glob: " " })).rejects.toThrow("glob is empty");
		await expect(grep(cwd, { pattern: "x", path: "nope" })).rejects.toThrow(`Path not found: nope (resolved to ${join(cwd, "nope")}).`);
	});

	it("stops when aborted, with an error saying so", async () => {
		const cwd = projectTree(SOURCE);
		await expect(grep(cwd, { pattern: "TODO" }, AbortSignal.abort())).rejects.toThrow("grep aborted.");
	});
});
