// Several looms share one prompt history: while one trims the file (rewrites it without its oldest lines),
// others append to it and trim it too. No prompt among those the file keeps may be lost on the way.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, ROOT } from "../support/loom-process.js";
import { tempDir } from "../support/temp-dir.js";

const WRITER = join(ROOT, "test", "support", "prompt-history-writer.mjs");
const MODULE = join(ROOT, "dist", "tui", "editor", "prompt-history-file.js");
const MAX_SAVED_PROMPTS = 1000;

function runWriter(file: string, name: string, count: number, loadEvery: number): Promise<void> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [WRITER, MODULE, file, name, String(count), String(loadEvery)], { stdio: ["ignore", "ignore", "pipe"] });
		let stderr = "";
		child.stderr.on("data", (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		child.on("error", reject);
		child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`writer ${name} exited ${code}: ${stderr}`))));
	});
}

/** Each writer's numbers in the file, in file order. */
function numbersByWriter(file: string): Map<string, number[]> {
	const byWriter = new Map<string, number[]>();
	for (const line of readFileSync(file, "utf8").split("\n")) {
		if (line === "") continue;
		const [name, n] = (JSON.parse(line) as { text: string }).text.split(" ");
		byWriter.set(name!, [...(byWriter.get(name!) ?? []), Number(n)]);
	}
	return byWriter;
}

beforeAll(async () => {
	await ensureBuilt();
}, 300_000);

describe("the prompt history shared by several looms", () => {
	it("loses no prompt it keeps while looms append to it and trim it at once", async () => {
		const file = join(tempDir("loom-history-"), "prompt-history.jsonl");
		const writers = ["a", "b", "c", "d"];
		// Three times the bound in all: past the first thousand lines, every writer's tenth prompt trims.
		const count = 750;
		await Promise.all(writers.map((name) => runWriter(file, name, count, 10)));
		const byWriter = numbersByWriter(file);
		let total = 0;
		for (const name of writers) {
			// Trims drop only the oldest lines: what is left of each writer is an unbroken run ending at its last prompt.
			const numbers = byWriter.get(name) ?? [];
			const first = numbers[0] ?? count + 1;
			const present = new Set(numbers);
			const lost = Array.from({ length: count - first + 1 }, (_, i) => first + i).filter((n) => !present.has(n));
			expect({ name, lost, inOrder: numbers.every((n, i) => i === 0 || n === numbers[i - 1]! + 1) }).toEqual({ name, lost: [], inOrder: true });
			total += numbers.length;
		}
		// Bounded still: at most the kept lines and those appended since the last trim.
		expect(total).toBeGreaterThanOrEqual(MAX_SAVED_PROMPTS);
		expect(total).toBeLessThanOrEqual(MAX_SAVED_PROMPTS + writers.length * 10);
	});
});
