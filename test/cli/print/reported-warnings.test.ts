// Print mode's memory of the warnings it wrote: a warning about a file once per change of the file.
import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fileNamedBy, warningsToReport } from "../../../src/cli/print/reported-warnings.js";
import { writeTree } from "../../support/project-tree.js";
import { tempDir } from "../../support/temp-dir.js";

describe("fileNamedBy", () => {
	it("finds the file a warning starts with, ended by a colon or a blank, blanks in its path included", () => {
		const dir = tempDir();
		writeTree(dir, { "dir with space/SKILL.md": "x", "AGENTS.md": "y", "dir/": "" });
		expect(fileNamedBy(`${dir}/dir with space/SKILL.md: bad YAML; the skill is skipped.`)).toBe(`${dir}/dir with space/SKILL.md`);
		expect(fileNamedBy(`${dir}/AGENTS.md is 70 KB; only its first 64 KB are given to the model.`)).toBe(`${dir}/AGENTS.md`);
	});

	it("finds none for a warning about no file, or about one that is gone", () => {
		const dir = tempDir();
		expect(fileNamedBy("allow rules (bash) ignored")).toBeUndefined();
		expect(fileNamedBy(`${dir}: not a file`)).toBeUndefined();
		expect(fileNamedBy(`${dir}/gone.md: bad`)).toBeUndefined();
	});
});

describe("warningsToReport", () => {
	it("returns a file's warning until it was written once, and again when the file changes", () => {
		const home = tempDir();
		const file = join(tempDir(), "fix.md");
		writeFileSync(file, "one");
		const warning = `${file}: bad front matter; the prompt template is skipped.`;
		expect(warningsToReport(home, [warning, "a warning about no file"])).toEqual([warning, "a warning about no file"]);
		expect(warningsToReport(home, [warning, "a warning about no file"])).toEqual(["a warning about no file"]);
		utimesSync(file, new Date(), new Date(Date.now() + 5000));
		expect(warningsToReport(home, [warning])).toEqual([warning]);
		expect(warningsToReport(home, [warning])).toEqual([]);
	});

	it("treats an unreadable memory as empty", () => {
		const home = tempDir();
		const file = join(home, "SKILL.md");
		writeFileSync(file, "x");
		writeFileSync(join(home, "reported-warnings.json"), "{ not json");
		const warning = `${file}: bad`;
		expect(warningsToReport(home, [warning])).toEqual([warning]);
		expect(warningsToReport(home, [warning])).toEqual([]);
	});
});
