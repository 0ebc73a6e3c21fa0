// Child processes have one owner, src/core/lib/process: nothing else adds an exit listener, signals a process
// group, or asks whether a process lives with its own `kill(pid, 0)`.
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../src");
const OWNER = path.join(SRC, "core", "lib", "process");

const PATTERNS: [RegExp, string][] = [
	[/process\.(on|once|addListener|prependListener)\(\s*"exit"/, "an exit listener (use onProcessExit)"],
	[/process\.kill\(\s*-/, "a signal to a process group (use a ProcessGroupSet)"],
	[/process\.kill\([^,()]+,\s*0\s*\)/, "a liveness check (use isAlive)"],
];

describe("child processes", () => {
	it("are tracked, ended and checked only through src/core/lib/process", async () => {
		const files = (await fs.readdir(SRC, { recursive: true })).filter((file) => /\.tsx?$/.test(file));
		const found: string[] = [];
		for (const file of files) {
			const full = path.join(SRC, file);
			if (full.startsWith(OWNER + path.sep)) continue;
			const source = await fs.readFile(full, "utf8");
			for (const [pattern, what] of PATTERNS) if (pattern.test(source)) found.push(`${file}: ${what}`);
		}
		expect(found).toEqual([]);
	});
});
