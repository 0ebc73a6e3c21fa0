import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { tempDir } from "../support/temp-dir.js";

// Runs every benchmark at a tiny size so the suite keeps working; figures are judged only by `npm run bench`.
// About 40 s on a lightly loaded 2-core machine; over 120 s was seen at load 10.
it("runs every benchmark at smoke size and writes the JSON report", async () => {
	const out = path.join(tempDir("loom-bench-"), "bench.json");
	const { stdout } = await promisify(execFile)(process.execPath, ["test/bench/run.mjs", "--smoke", "--json", out], {
		maxBuffer: 16 * 1024 * 1024,
		// Pi's side is the full bench's: the smoke runs loom's alone, so it takes as long with Pi installed as without.
		env: { ...process.env, LOOM_BENCH_PI: "none" },
		// Ended before the test's own timeout, so the failure shows how far the report got.
		timeout: 390_000,
	}).catch((error: Error & { stdout?: string }) => {
		// The report names the benchmark that failed to run and why; the error alone shows only stderr.
		throw new Error(`${error.message}\n${error.stdout ?? ""}`);
	});
	expect(stdout).not.toContain("FAILED TO RUN");
	const report = JSON.parse(readFileSync(out, "utf8"));
	const names = new Set(report.results.map((r: { benchmark: string }) => r.benchmark));
	expect([...names]).toEqual(
		expect.arrayContaining(["startup", "sdk first prompt", "screen ready", "loop overhead", "tool loop", "parallel tools", "streaming screen", "tool I/O", "long sessions", "grep", "file completion", "checkpoints", "sandbox", "language servers", "batch"]),
	);
	for (const row of report.results) {
		// Timings are positive; counts such as "frames over height" may rightly be 0.
		if (row.median !== undefined) expect(row.median).toBeGreaterThan(0);
		else expect(Number.isFinite(row.value)).toBe(true);
	}
}, 400_000);
