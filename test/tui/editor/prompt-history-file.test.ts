// The prompts typed in the screen, kept across sessions in one bounded file in the loom home, as a shell keeps
// its history: each project recalls its own.
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_SAVED_PROMPTS, MAX_SAVED_PROMPT_CHARS, loadPromptHistory, promptHistoryPath, savePrompt } from "../../../src/tui/editor/prompt-history-file.js";
import { STALE_LOCK_MS } from "../../../src/core/lib/files/short-lock.js";
import { tempDir } from "../../support/temp-dir.js";

const here = "/work/project";
const elsewhere = "/work/other";

function historyFile(): string {
	return promptHistoryPath(tempDir("loom-history-"));
}

describe("the prompt history file", () => {
	it("gives each project its own prompts, oldest first, a prompt repeated at once only once", () => {
		const file = historyFile();
		for (const [cwd, text] of [
			[here, "first"],
			[here, "second"],
			[here, "second"],
			[elsewhere, "somewhere else"],
			[here, "multi\nline"],
			[here, "first"],
		] as const) {
			savePrompt(file, cwd, text);
		}
		expect(loadPromptHistory(file, here)).toEqual(["first", "second", "multi\nline", "first"]);
		expect(loadPromptHistory(file, elsewhere)).toEqual(["somewhere else"]);
		expect(loadPromptHistory(file, "/never/used")).toEqual([]);
	});

	it("is created readable by the user alone (prompts may hold secrets), in a loom home made on demand", () => {
		const file = join(tempDir("loom-history-"), "new-home", "prompt-history.jsonl");
		savePrompt(file, here, "export TOKEN=abc");
		expect(statSync(file).mode & 0o777).toBe(0o600);
	});

	it("recalls at most `limit` prompts, the latest", () => {
		const file = historyFile();
		for (let i = 1; i <= 30; i++) savePrompt(file, here, `prompt ${i}`);
		expect(loadPromptHistory(file, here, 3)).toEqual(["prompt 28", "prompt 29", "prompt 30"]);
	});

	it("stays bounded: once it holds more than its limit, the oldest entries go when it is next read", () => {
		const file = historyFile();
		const extra = 25;
		for (let i = 1; i <= MAX_SAVED_PROMPTS + extra; i++) savePrompt(file, i % 2 === 0 ? here : elsewhere, `prompt ${i}`);
		const prompts = loadPromptHistory(file, here, 10_000);
		expect(readFileSync(file, "utf8").trimEnd().split("\n")).toHaveLength(MAX_SAVED_PROMPTS);
		expect(prompts.at(-1)).toBe(`prompt ${MAX_SAVED_PROMPTS + extra - 1}`);
		expect(prompts).not.toContain("prompt 2");
		// Still readable, and appended to, after trimming.
		savePrompt(file, here, "after trimming");
		expect(loadPromptHistory(file, here).at(-1)).toBe("after trimming");
	});

	it("does not keep a prompt longer than its limit, nor a blank one", () => {
		const file = historyFile();
		savePrompt(file, here, "x".repeat(MAX_SAVED_PROMPT_CHARS + 1));
		savePrompt(file, here, "   ");
		savePrompt(file, here, "kept");
		expect(loadPromptHistory(file, here)).toEqual(["kept"]);
	});

	it("reads only the end of a huge file, and passes over lines that are not its entries", () => {
		const file = historyFile();
		mkdirSync(join(file, ".."), { recursive: true });
		writeFileSync(file, `${JSON.stringify({ cwd: here, text: "lost in the middle" })}\n`.repeat(1) + "y".repeat(8 * 1024 * 1024) + "\n");
		appendFileSync(file, `not json\n{"cwd":"${here}","text":42}\n["an array"]\n${JSON.stringify({ cwd: here, text: "latest" })}\n`);
		expect(loadPromptHistory(file, here)).toEqual(["latest"]);
	});

	it("recalls text without the terminal escapes a hand-edited file might hold", () => {
		const file = historyFile();
		savePrompt(file, here, "plain");
		appendFileSync(file, `${JSON.stringify({ cwd: here, text: "red \u001b[31mtext\u001b[0m\nand a tab\there" })}\n`);
		expect(loadPromptHistory(file, here)).toEqual(["plain", "red text\nand a tab\there"]);
	});

	it("is appended to and trimmed past a lock left by a loom that died holding it", () => {
		const file = historyFile();
		savePrompt(file, here, "before");
		writeFileSync(`${file}.lock`, "12345 crashed\n");
		const then = new Date(Date.now() - STALE_LOCK_MS - 1000);
		utimesSync(`${file}.lock`, then, then);
		for (let i = 1; i <= MAX_SAVED_PROMPTS + 5; i++) savePrompt(file, here, `prompt ${i}`);
		expect(loadPromptHistory(file, here).at(-1)).toBe(`prompt ${MAX_SAVED_PROMPTS + 5}`);
		expect(readFileSync(file, "utf8").trimEnd().split("\n")).toHaveLength(MAX_SAVED_PROMPTS);
		expect(existsSync(`${file}.lock`)).toBe(false);
	});

	it("never throws: a missing file is an empty history, and a file that cannot be written is left alone", () => {
		const dir = tempDir("loom-history-");
		expect(loadPromptHistory(join(dir, "missing.jsonl"), here)).toEqual([]);
		// A directory where the file should be: neither reading nor writing it fails the screen.
		mkdirSync(join(dir, "taken.jsonl"));
		expect(() => savePrompt(join(dir, "taken.jsonl"), here, "text")).not.toThrow();
		expect(loadPromptHistory(join(dir, "taken.jsonl"), here)).toEqual([]);
	});
});
