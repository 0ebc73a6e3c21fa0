import fs from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { createBashTool } from "../../src/tools/index.js";
import { tempDir } from "../support/temp-dir.js";

// The case is 1 GB; the benchmark runs that. Here 200 MB keeps the test fast while still being far
// more than any buffer could hide.
const TOTAL_BYTES = 200_000_000;
const RSS_GROWTH_LIMIT = 60 * 1024 * 1024;

describe("bash tool: memory", () => {
	it(`keeps memory bounded while a command prints ${TOTAL_BYTES / 1e6} MB`, async () => {
		const tool = createBashTool(tempDir());
		const baseline = process.memoryUsage().rss;
		let peak = baseline;
		const sampler = setInterval(() => {
			peak = Math.max(peak, process.memoryUsage().rss);
		}, 10);
		let updates = 0;
		let fullPath: string | undefined;
		try {
			const result = await tool.execute(
				"1",
				{ command: `yes 'the quick brown fox jumps over the lazy dog' | head -c ${TOTAL_BYTES}; echo; echo LAST LINE` },
				undefined,
				() => {
					updates++;
					peak = Math.max(peak, process.memoryUsage().rss);
				},
			);
			peak = Math.max(peak, process.memoryUsage().rss);
			const text = result.content[0]!.type === "text" ? result.content[0]!.text : "";
			expect(text).toMatch(
				/\nLAST LINE\n\n\[Output cut: showing the last \d+ lines \(50\.0 KB\) of 190\.7 MB\. Output file \(its first 48\.0 MB and last 16\.0 MB; 126\.7 MB in between dropped\): /,
			);
			// The tail starts on a whole line.
			expect(text.startsWith("the quick brown fox jumps over the lazy dog\n")).toBe(true);
			expect(result.details.totalBytes).toBe(TOTAL_BYTES + "\nLAST LINE\n".length);
			expect(updates).toBeGreaterThan(0);
			fullPath = result.details.fullOutputPath;
			// The file keeps 64 MB of it: the head, a line saying what was dropped, and the tail.
			const file = await fs.stat(fullPath!);
			expect(file.size).toBeGreaterThan(64 * 1024 * 1024);
			expect(file.size).toBeLessThan(64 * 1024 * 1024 + 200);
			const handle = await fs.open(fullPath!);
			const end = Buffer.alloc(64);
			await handle.read(end, 0, 64, file.size - 64);
			await handle.close();
			expect(end.toString()).toMatch(/\nLAST LINE\n$/);
		} finally {
			clearInterval(sampler);
			if (fullPath) await fs.rm(fullPath, { force: true });
		}
		expect(peak - baseline).toBeLessThan(RSS_GROWTH_LIMIT);
		console.log(`RSS growth while printing ${TOTAL_BYTES / 1e6} MB: ${((peak - baseline) / 1024 / 1024).toFixed(1)} MB`);
	});
});
