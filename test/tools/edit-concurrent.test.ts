// An edit never drops another program's change: while a real process keeps appending to a file, a series of
// edits to its first line may fail with "changed on disk while editing", but every appended line stays.
import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createEditTool } from "../../src/tools/index.js";
import { tempDir } from "../support/temp-dir.js";

const EDITS = 20;

/**
 * Appends numbered lines, each with its own open-append-close (as `>>` in a shell loop does), pausing now and then,
 * until the file named by its second argument appears.
 */
const APPENDER = `
const { appendFileSync, existsSync } = require("node:fs");
const [file, stop] = process.argv.slice(1);
const pause = new Int32Array(new SharedArrayBuffer(4));
for (let i = 0; i < 1e6 && !existsSync(stop); i++) {
	appendFileSync(file, "appended line " + i + "\\n");
	if (i % 4 === 0) Atomics.wait(pause, 0, 0, 1);
}
`;

/** The number of an appended line. */
const numberOf = (line: string) => Number(/^appended line (\d+)$/.exec(line)?.[1] ?? Number.NaN);

describe("edit while another process appends to the file", () => {
	it("keeps every appended line exactly once, and every edit that succeeded", async () => {
		const dir = tempDir();
		const file = path.join(dir, "log.txt");
		const stop = path.join(dir, "stop");
		await fs.writeFile(file, "counter 0\n");
		const edit = createEditTool(dir);
		const appender = spawn(process.execPath, ["-e", APPENDER, file, stop], { stdio: "ignore" });
		const exited = new Promise<number | null>((resolve) => appender.on("exit", resolve));

		let succeeded = 0;
		const failures: string[] = [];
		try {
			// Edits start once the appender is writing.
			while ((await fs.stat(file)).size < 200) await new Promise((r) => setTimeout(r, 5));
			for (let i = 0; i < EDITS; i++) {
				try {
					await edit.execute("e", { path: "log.txt", edits: [{ oldText: `counter ${succeeded}\n`, newText: `counter ${succeeded + 1}\n` }] });
					succeeded++;
				} catch (error) {
					failures.push((error as Error).message);
				}
			}
		} finally {
			await fs.writeFile(stop, "");
		}
		expect(await exited).toBe(0);

		const lines = (await fs.readFile(file, "utf8")).trimEnd().split("\n");
		expect(lines[0]).toBe(`counter ${succeeded}`);
		const numbers = lines.slice(1).map(numberOf);
		expect(numbers.length).toBeGreaterThan(EDITS);
		// Each line once; a line written at the very instant of a replacement may come a line or two late.
		expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: numbers.length }, (_, i) => i));
		for (const message of failures) expect(message).toMatch(/changed on disk while editing/);
		expect(succeeded).toBeGreaterThanOrEqual(EDITS / 2);
	});
});
