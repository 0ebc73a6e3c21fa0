// Programs loom itself starts (bwrap, rg, language servers) are looked up on PATH, but never through an entry
// relative to the folder loom stands in: a repository's own `rg` must not run because PATH holds `.` or `bin`.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findOnPath } from "../../../../src/core/index.js";
import { workspace } from "../../../support/temp-dir.js";

function program(folder: string, name: string): string {
	mkdirSync(folder, { recursive: true });
	writeFileSync(join(folder, name), "#!/bin/sh\n");
	chmodSync(join(folder, name), 0o755);
	return join(folder, name);
}

describe("findOnPath", () => {
	it("finds a runnable program in an absolute PATH entry, the first one first", () => {
		const { cwd } = workspace();
		const first = program(join(cwd, "a"), "tool");
		program(join(cwd, "b"), "tool");
		expect(findOnPath("tool", [join(cwd, "a"), join(cwd, "b")].join(":"))).toBe(first);
	});

	it("skips empty and relative entries, which name the current folder or one inside it", () => {
		const { cwd } = workspace();
		program(join(cwd, "bin"), "rg");
		program(cwd, "rg");
		const here = process.cwd();
		process.chdir(cwd);
		try {
			expect(findOnPath("rg", ["", ".", "bin", "./bin"].join(":"))).toBeUndefined();
			expect(findOnPath("rg", [":", join(cwd, "bin")].join(""))).toBe(join(cwd, "bin", "rg"));
		} finally {
			process.chdir(here);
		}
	});
});
