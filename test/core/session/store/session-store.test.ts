import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Message } from "../../../../src/core/index.js";
import {
	buildSessionContext,
	cwdFolderName,
	loadSessionFile,
	SessionFileError,
	SessionStore,
	sessionsRoot,
} from "../../../../src/core/session/index.js";
import { tempDir } from "../../../support/temp-dir.js";
import { assistant, toolResult, user } from "../session-fixtures.js";

function newStore(home = tempDir(), cwd = "/work/project") {
	return { home, store: SessionStore.create({ home, cwd }) };
}

function linesOf(file: string): any[] {
	return readFileSync(file, "utf8")
		.split("\n")
		.filter((line) => line !== "")
		.map((line) => JSON.parse(line));
}

describe("SessionStore", () => {
	it("creates no file until the first entry, then writes the header and the entry", () => {
		const { home, store } = newStore();
		expect(store.file).toBeDefined();
		expect(existsSync(store.file!)).toBe(false);
		store.append({ type: "message", message: user("hello") });
		const dir = join(sessionsRoot(home), cwdFolderName("/work/project"));
		const name = store.file!.slice(dir.length + 1);
		// Beside the session file, its lock while the store has it open for writing (removed by close()).
		expect(readdirSync(dir).sort()).toEqual([name, `${name}.lock`]);
		expect(store.file).toMatch(/\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z_[0-9a-f-]{36}\.jsonl$/);
		const [header, entry] = linesOf(store.file!);
		expect(header).toMatchObject({ type: "session", version: 1, id: store.id, cwd: "/work/project" });
		expect(new Date(header.created).getTime()).toBeGreaterThan(0);
		expect(entry).toMatchObject({ type: "message", parentId: null, n: 1, message: { role: "user", content: "hello" } });
		store.close();
		expect(readdirSync(dir)).toEqual([name]);
	});

	it("chains entries by parentId, counts messages in n and writes each entry at once", () => {
		const { store } = newStore();
		const first = store.append({ type: "message", message: user("q") });
		const change = store.append({ type: "model_change", provider: "openai", modelId: "gpt-x" });
		const answer = store.append({ type: "message", message: assistant("a") });
		const thinking = store.append({ type: "thinking_change", thinkingLevel: "high" });
		// Read back after every append would be slow; one read proves all four lines are already on disk.
		const lines = linesOf(store.file!);
		expect(lines.slice(1).map((line) => [line.type, line.id, line.parentId, line.n])).toEqual([
			["message", first.id, null, 1],
			["model_change", change.id, first.id, 1],
			["message", answer.id, change.id, 2],
			["thinking_change", thinking.id, answer.id, 2],
		]);
		expect(new Set(lines.slice(1).map((line) => line.id)).size).toBe(4);
		expect(store.messageCount).toBe(2);
		store.close();
	});

	it("starts every entry line with type, id, parentId, timestamp and n", () => {
		const { store } = newStore();
		store.append({ type: "message", message: user("x") });
		const line = readFileSync(store.file!, "utf8").split("\n")[1]!;
		expect(line).toMatch(/^\{"type":"message","id":"[0-9a-f]{8}","parentId":null,"timestamp":"[^"]+","n":1,"message":/);
		store.close();
	});

	it("holds model and thinking entries of a new session until its first message", () => {
		const { store } = newStore();
		store.append({ type: "model_change", provider: "openai", modelId: "m" });
		store.append({ type: "thinking_change", thinkingLevel: "low" });
		expect(existsSync(store.file!)).toBe(false);
		store.append({ type: "message", message: user("now") });
		expect(linesOf(store.file!).map((line) => line.type)).toEqual(["session", "model_change", "thinking_change", "message"]);
		store.close();
	});

	it("keeps nothing on disk with persist: false, but still gives entries ids", () => {
		const home = tempDir();
		const store = SessionStore.create({ home, cwd: "/p", persist: false });
		const entry = store.append({ type: "message", message: user("x") });
		expect(store.file).toBeUndefined();
		expect(entry.id).toMatch(/^[0-9a-f]{8}$/);
		expect(store.entries).toHaveLength(1);
		expect(existsSync(sessionsRoot(home))).toBe(false);
	});

	it("reopens a session and appends to the same file without rewriting it", async () => {
		const { store } = newStore();
		store.append({ type: "message", message: user("one") });
		store.append({ type: "message", message: assistant("two") });
		store.close();
		const before = readFileSync(store.file!, "utf8");

		const reopened = await SessionStore.open(store.file!);
		expect(reopened.id).toBe(store.id);
		expect(reopened.messageCount).toBe(2);
		const added = reopened.append({ type: "message", message: user("three") });
		reopened.close();

		const after = readFileSync(reopened.file!, "utf8");
		expect(after.startsWith(before)).toBe(true);
		expect(added.parentId).toBe(store.entries[1]!.id);
		expect(linesOf(reopened.file!).at(-1)).toMatchObject({ n: 3, message: { content: "three" } });
	});

	it("appends after a torn last line on a fresh line, and the file still loads", async () => {
		const { store } = newStore();
		store.append({ type: "message", message: user("one") });
		store.append({ type: "message", message: assistant("two") });
		store.close();
		appendFileSync(store.file!, '{"type":"message","id":"deadbeef","parentId":null,"timest');

		const reopened = await SessionStore.open(store.file!);
		expect(reopened.warnings).toHaveLength(1);
		expect(reopened.warnings[0]).toMatch(/last line \(4\) is incomplete.*skipped/);
		reopened.append({ type: "message", message: user("three") });
		reopened.close();

		const loaded = await loadSessionFile(store.file!);
		expect(loaded.entries.map((entry) => (entry.type === "message" ? (entry.message as Message).content : ""))).toEqual([
			"one",
			[{ type: "text", text: "two" }],
			"three",
		]);
		// The torn line is now in the middle: still skipped, reported by its line number.
		expect(loaded.warnings).toEqual([expect.stringMatching(/line 4 is not valid JSON; it was skipped/)]);
	});

	it("locks an opened session for this process: a second open here shares the lock, and the last close removes it", async () => {
		const { store } = newStore();
		store.append({ type: "message", message: user("hello") });
		const file = store.file!;
		store.close();
		expect(existsSync(`${file}.lock`)).toBe(false);
		const first = await SessionStore.open(file);
		// What /resume of the session already open does before it closes the old store.
		const second = await SessionStore.open(file);
		expect(JSON.parse(readFileSync(`${file}.lock`, "utf8"))).toMatchObject({ pid: process.pid });
		first.close();
		expect(existsSync(`${file}.lock`)).toBe(true);
		second.close();
		expect(existsSync(`${file}.lock`)).toBe(false);
	});

	it("forks a session into a new store that names its parent; save() writes it at once with the copied conversation", async () => {
		const { home, store } = newStore();
		store.append({ type: "message", message: user("q") });
		store.append({ type: "message", message: assistant("a") });
		store.close();
		const before = readFileSync(store.file!, "utf8");
		const fork = await SessionStore.fork(store.file!, { home, cwd: "/work/project" });
		expect(fork.header.parentSession).toBe(store.file);
		expect(fork.entries.map((entry) => entry.id)).toEqual(store.entries.map((entry) => entry.id));
		expect(existsSync(fork.file!)).toBe(false);
		fork.save();
		// Quitting now keeps it: the file is there, locked while this store has it.
		expect(linesOf(fork.file!).map((line) => line.type)).toEqual(["session", "message", "message"]);
		expect(linesOf(fork.file!)[0]).toMatchObject({ id: fork.id, parentSession: store.file });
		expect(existsSync(`${fork.file}.lock`)).toBe(true);
		expect(fork.saved).toBe(true);
		fork.append({ type: "message", message: user("more") });
		expect(linesOf(fork.file!).map((line) => line.type)).toEqual(["session", "message", "message", "message"]);
		expect(readFileSync(store.file!, "utf8")).toBe(before);
		fork.close();
		expect(existsSync(`${fork.file}.lock`)).toBe(false);
	});

	it("saves a fork from within a session too; one holding no message waits for its first one, like a new session", () => {
		const { home, store } = newStore();
		store.append({ type: "model_change", provider: "openai", modelId: "m" });
		const prompt = store.append({ type: "message", message: user("q") });
		store.append({ type: "message", message: assistant("a") });
		const whole = store.forkAt(store.lastEntryId, { home, cwd: "/work/project" });
		whole.save();
		whole.save();
		expect(linesOf(whole.file!).map((line) => line.type)).toEqual(["session", "model_change", "message", "message"]);
		whole.close();

		const empty = store.forkAt(prompt.parentId, { home, cwd: "/work/project" });
		expect(empty.entries.map((entry) => entry.type)).toEqual(["model_change"]);
		empty.save();
		expect(empty.saved).toBe(false);
		expect(existsSync(empty.file!)).toBe(false);
		empty.append({ type: "message", message: user("again") });
		expect(linesOf(empty.file!).map((line) => line.type)).toEqual(["session", "model_change", "message"]);
		expect(empty.saved).toBe(true);
		empty.close();
		store.close();
	});
});

describe("loadSessionFile", () => {
	it("rejects a file that is not a session, naming it", async () => {
		const dir = tempDir();
		const notes = join(dir, "notes.jsonl");
		writeFileSync(notes, '{"hello":"world"}\n');
		await expect(loadSessionFile(notes)).rejects.toThrow(SessionFileError);
		await expect(loadSessionFile(notes)).rejects.toThrow(`${notes} is not a loom session file`);
		const text = join(dir, "readme.txt");
		writeFileSync(text, "just some text\n");
		await expect(loadSessionFile(text)).rejects.toThrow(/is not a loom session file: its first line is not JSON/);
	});

	it("rejects an empty file, a missing file and a directory clearly", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "empty.jsonl"), "");
		await expect(loadSessionFile(join(dir, "empty.jsonl"))).rejects.toThrow(/it is empty/);
		await expect(loadSessionFile(join(dir, "missing.jsonl"))).rejects.toThrow(/No session file at/);
		await expect(loadSessionFile(dir)).rejects.toThrow(/is a directory/);
	});

	it("refuses a session written by a newer format version", async () => {
		const file = join(tempDir(), "future.jsonl");
		writeFileSync(file, '{"type":"session","version":99,"id":"x","created":"2030-01-01T00:00:00.000Z","cwd":"/"}\n');
		await expect(loadSessionFile(file)).rejects.toThrow(/newer loom.*Update loom/);
	});

	it("skips damaged and unknown lines with warnings and loads the rest", async () => {
		const { store } = newStore();
		store.append({ type: "message", message: user("one") });
		store.close();
		appendFileSync(store.file!, 'garbage\n{"type":"future_thing","id":"abc"}\n{"id":"x","type":"message"}\n');
		const reopened = await SessionStore.open(store.file!);
		reopened.append({ type: "message", message: assistant("two") });
		reopened.close();
		const loaded = await loadSessionFile(store.file!);
		expect(loaded.entries).toHaveLength(2);
		expect(loaded.warnings).toEqual([
			expect.stringMatching(/line 3 is not valid JSON/),
			expect.stringMatching(/line 4 has an unknown entry type "future_thing"/),
			expect.stringMatching(/line 5 is a message entry without a message/),
		]);
	});

	it("streams a large session and rebuilds its messages in order", async () => {
		const { store } = newStore();
		const big = "x".repeat(20_000);
		for (let i = 0; i < 1000; i++) {
			store.append({ type: "message", message: user(`question ${i}`) });
			store.append({ type: "message", message: toolResult(big) });
		}
		store.close();
		const loaded = await loadSessionFile(store.file!);
		expect(loaded.warnings).toEqual([]);
		const { messages } = buildSessionContext(loaded.entries);
		expect(messages).toHaveLength(2000);
		expect(messages[1998]).toMatchObject({ role: "user", content: "question 999" });
		expect((messages[1999] as any).content[0].text).toHaveLength(20_000);
	});
});

describe("loadSessionFile line splitting", () => {
	it("loads lines longer than a read chunk, multi-byte text across chunk edges, and CRLF line ends", async () => {
		const { store } = newStore();
		const long = "é€😀 ".repeat(400_000); // about 3.6 MB of multi-byte text
		store.append({ type: "message", message: user("short") });
		store.append({ type: "message", message: toolResult(long) });
		store.append({ type: "message", message: user("after") });
		store.close();
		const loaded = await loadSessionFile(store.file!);
		expect(loaded.warnings).toEqual([]);
		expect((loaded.entries[1] as any).message.content[0].text).toBe(long);
		expect((loaded.entries[2] as any).message.content).toBe("after");

		const crlf = join(tempDir(), "crlf.jsonl");
		writeFileSync(crlf, readFileSync(store.file!, "utf8").replace(/\n/g, "\r\n"));
		const fromCrlf = await loadSessionFile(crlf);
		expect(fromCrlf.warnings).toEqual([]);
		expect(fromCrlf.entries).toHaveLength(3);
	});
});

describe("buildSessionContext", () => {
	it("returns the messages and the last model and thinking level chosen", () => {
		const { store } = newStore();
		store.append({ type: "model_change", provider: "anthropic", modelId: "a" });
		store.append({ type: "message", message: user("q") });
		store.append({ type: "thinking_change", thinkingLevel: "low" });
		store.append({ type: "model_change", provider: "openai", modelId: "b" });
		store.append({ type: "message", message: assistant("a") });
		store.close();
		const context = buildSessionContext(store.entries);
		expect(context.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
		expect(context.model).toEqual({ provider: "openai", modelId: "b" });
		expect(context.thinkingLevel).toBe("low");
	});
});
