// grep's first pass through ripgrep (when `rg` is on the PATH) finds what the Node walk finds: the same lines in
// the same order, the same files left out (ignored at any level, re-included, dotfiles, .git, binary, over the
// size limit, links), with every kind of pattern that has a piece of text to look for; a file is read as its
// bytes, whatever mark it starts with.
import { closeSync, ftruncateSync, openSync, symlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_GREP_FILE_BYTES, createGrepTool } from "../../src/tools/index.js";
import { ripgrepOnPath, ripgrepPass } from "../../src/tools/ripgrep.js";
import { projectTree } from "../support/project-tree.js";
import { callTool } from "./tool-call.js";

const TREE = {
	".gitignore": "*.log\nbuild/\n!keep.log\n/top-only.txt\n",
	".env": "SECRET_NEEDLE=1\n",
	".git/config": "needle in git's own folder\n",
	"top-only.txt": "needle at the top\n",
	"keep.log": "needle kept by a negation\n",
	"debug.log": "needle in an ignored log\n",
	"build/out.js": "needle built\n",
	"a.txt": "a needle\nNEEDLE shouting\nnothing\nneedle_42 = x\n",
	"a-b/c.txt": "needle in a-b\n",
	"a/b.txt": "needle in a\n",
	"a.b/x.txt": "needle in a.b\n",
	"Zeta.txt": "needle capital\n",
	"src/.gitignore": "generated/\n*.tmp\n",
	"src/generated/g.ts": "needle generated\n",
	"src/top-only.txt": "needle not at the top\n",
	"src/x.tmp": "needle tmp\n",
	"src/deep/y.ts": "const needle_7 = 7;\nline two\nneedle again\n",
	"src/deep/.hidden/z.ts": "needle hidden folder\n",
	// A UTF-16 byte-order mark before UTF-8 text: ripgrep would transcode the file and miss the text.
	"marked.txt": Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("needle after a UTF-16 mark\n")]),
	"bin.dat": Buffer.concat([Buffer.from("needle "), Buffer.alloc(16, 0), Buffer.from(" binary")]),
	"pkg/node_modules/dep/i.js": "needle in a dependency\n",
	"pkg/.gitignore": "node_modules/\n",
};

const PARAMS: Record<string, unknown>[] = [
	{ pattern: "needle" },
	{ pattern: "NEEDLE", ignoreCase: true },
	{ pattern: "needle_\\d+ =" },
	{ pattern: "(const )?needle_[0-9]" },
	{ pattern: "needle", glob: "*.ts" },
	{ pattern: "needle", glob: "src/**/*.txt" },
	{ pattern: "needle", glob: "*.txt" },
	{ pattern: "needle", context: 1 },
	{ pattern: "needle", limit: 3 },
	{ pattern: "needle", path: "src" },
	{ pattern: "(TODO", literal: true },
	{ pattern: "absent text" },
];

const rg = ripgrepOnPath();

describe.skipIf(rg === undefined)("grep through ripgrep", () => {
	it("returns what the Node walk returns, for every kind of pattern, filter and limit", async () => {
		const cwd = projectTree(TREE);
		symlinkSync("a.txt", join(cwd, "link.txt"));
		// Over the size limit, sparse: huge.txt holds nothing (so no match), huge-needle.txt the text (so it is named).
		for (const [name, text] of [["huge.txt", ""], ["huge-needle.txt", "needle in a huge file\n"]] as const) {
			const big = openSync(join(cwd, name), "w");
			writeSync(big, text);
			ftruncateSync(big, MAX_GREP_FILE_BYTES + 1);
			closeSync(big);
		}
		for (const params of PARAMS) {
			const walked = await callTool(createGrepTool(cwd, { ripgrep: false }), params);
			const ripgrep = await callTool(createGrepTool(cwd, { ripgrep: rg }), params);
			expect({ params, text: ripgrep.text }).toEqual({ params, text: walked.text });
			// The walk stops counting where the limit stops it; ripgrep has read them all.
			const { searched, ...rest } = ripgrep.details;
			const { searched: walkedSearched, ...walkedRest } = walked.details;
			expect(rest).toEqual(walkedRest);
			if (!walked.details.limitReached) expect(searched).toBe(walkedSearched);
		}
		// ripgrep really answered (no fallback to the walk): its own pass names the files, and those too big when
		// given the limit (without it, it reads them).
		const candidates = expect.arrayContaining(["a.txt", "marked.txt", "src/deep/y.ts", "src/deep/.hidden/z.ts", "keep.log"]);
		const limited = await ripgrepPass(rg!, cwd, "needle", { ignoreCase: false, maxFileBytes: MAX_GREP_FILE_BYTES });
		expect(limited).toMatchObject({ tooBig: ["huge-needle.txt", "huge.txt"], candidates });
		expect(limited!.candidates).not.toContain("huge-needle.txt");
		const whole = await ripgrepPass(rg!, cwd, "needle", { ignoreCase: false });
		expect(whole).toMatchObject({ tooBig: [], candidates: expect.arrayContaining(["huge-needle.txt"]) });
		expect(whole!.searched).toBe(limited!.searched + 2);
		// The note names the huge file that holds the text, and only it.
		expect((await callTool(createGrepTool(cwd, { ripgrep: rg }), { pattern: "needle" })).text).toMatch(/\[Not searched, over 16\.0 MB: huge-needle\.txt\. /);
		// The walk does see files, so the comparison is not of two empty answers.
		expect((await callTool(createGrepTool(cwd, { ripgrep: rg }), { pattern: "needle" })).details.matches).toBeGreaterThan(10);
	});
});
