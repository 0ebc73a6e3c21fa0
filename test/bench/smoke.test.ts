import { execFile } from "node:child_process";
import { readFileSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";

// Runs every benchmark at a tiny size so the suite keeps working; figures are judged only by `npm run bench`.
it("runs every benchmark at smoke size and writes the JSON report", async () => {
	const out = path.join(mkdtempSync(path.join(os.tmpdir(), "loom-bench-")), "bench.json");
	const { stdout } = await promisify(execFile)(process.execPath, ["test/bench/run.mjs", "--smoke", "--json", out], {
		maxBuffer: 16 * 1024 * 1024,
	});
	expect(stdout).not.toContain("FAILED TO RUN");
	const report = JSON.parse(readFileSync(out, "utf8"));
	const names = new Set(report.results.map((r: { benchmark: string }) => r.benchmark));
	expect([...names]).toEqual(expect.arrayContaining(["loop overhead", "parallel tools"]));
	for (const row of report.results) expect(row.median ?? row.value).toBeGreaterThan(0);
}, 120_000);
