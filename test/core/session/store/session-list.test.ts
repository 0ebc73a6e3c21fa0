import { appendFileSync, closeSync, mkdirSync, openSync, readFileSync, utimesSync, writeFileSync, writeSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import {
	cwdFolderName,
	listAllSessions,
	listSessions,
	newestSessionFile,
	readSessionInfo,
	resolveSessionArgument,
	SessionStore,
	sessionChoice,
	sessionDirFor,
	sessionIdFromFileName,
} from "../../../../src/core/session/index.js";
import { formatSessionList } from "../../../../src/cli/session-choice.js";
import { tempDir } from "../../../support/temp-dir.js";
import { assistant, toolResult, user } from "../session-fixtures.js";

function session(home: string, cwd: string, prompts: string[], mtime?: Date): string {
	const store = SessionStore.create({ home, cwd });
	for (const prompt of prompts) {
		store.append({ type: "message", message: user(prompt) });
		store.append({ type: "message", message: assistant(`answer to ${prompt}`) });
	}
	store.close();
	if (mtime) utimesSync(store.file!, mtime, mtime);
	return store.file!;
}

describe("listSessions", () => {
	it("lists this directory's sessions newest first with date, first prompt and message count", () => {
		const home = tempDir();
		const old = session(home, "/proj", ["fix the bug", "now test it"], new Date("2024-01-01T00:00:00Z"));
		const recent = session(home, "/proj", ["add a README"], new Date("2024-06-01T00:00:00Z"));
		session(home, "/other", ["elsewhere"]);

		const infos = listSessions(home, "/proj");
		expect(infos.map((info) => info.file)).toEqual([recent, old]);
		expect(infos[0]).toMatchObject({ firstPrompt: "add a README", messageCount: 2, cwd: "/proj" });
		expect(infos[1]).toMatchObject({ firstPrompt: "fix the bug", messageCount: 4 });
		expect(infos[1]!.modified.toISOString()).toBe("2024-01-01T00:00:00.000Z");
		expect(infos[1]!.created.getTime()).toBeGreaterThan(0);
		expect(listAllSessions(home)).toHaveLength(3);
	});

	it("marks a fork with the id of the session it was forked from, which the -r list and /resume show", async () => {
		const home = tempDir();
		const original = session(home, "/proj", ["the question"], new Date("2024-01-01T00:00:00Z"));
		const fork = await SessionStore.fork(original, { home, cwd: "/proj" });
		fork.save();
		fork.close();
		const infos = listSessions(home, "/proj");
		const parent = infos.find((info) => info.file === original)!;
		const child = infos.find((info) => info.file === fork.file)!;
		expect(parent.forkOf).toBeUndefined();
		expect(child.forkOf).toBe(parent.id);
		expect(child.firstPrompt).toBe(parent.firstPrompt);
		expect(sessionChoice(child).description).toContain(`fork of ${parent.id.slice(0, 8)}`);
		expect(sessionChoice(parent).description).not.toContain("fork of");
		expect(formatSessionList([child], 200)).toContain(`the question (fork of ${parent.id.slice(0, 8)})`);
	});

	it("returns an empty list when there are no sessions", () => {
		expect(listSessions(tempDir(), "/nothing")).toEqual([]);
	});

	it("leaves out files that are not sessions and sessions of a colliding cwd", () => {
		const home = tempDir();
		session(home, "/a/b", ["mine"]);
		// "/a-b" maps to the same folder name as "/a/b"; its header tells them apart.
		session(home, "/a-b", ["not mine"]);
		writeFileSync(join(sessionDirFor(home, "/a/b"), "stray.jsonl"), "not json at all\n");
		expect(listSessions(home, "/a/b").map((info) => info.firstPrompt)).toEqual(["mine"]);
		expect(listSessions(home, "/a-b").map((info) => info.firstPrompt)).toEqual(["not mine"]);
	});

	it("counts a session with no entries yet as zero messages", () => {
		const home = tempDir();
		const dir = sessionDirFor(home, "/p");
		mkdirSync(dir, { recursive: true });
		const file = join(dir, "2024-01-01T00-00-00-000Z_abc.jsonl");
		writeFileSync(file, '{"type":"session","version":1,"id":"abc","created":"2024-01-01T00:00:00.000Z","cwd":"/p"}\n');
		expect(readSessionInfo(file)).toMatchObject({ id: "abc", messageCount: 0, firstPrompt: "" });
	});

	it("ignores a torn last line when counting", () => {
		const home = tempDir();
		const file = session(home, "/p", ["one", "two"]);
		appendFileSync(file, '{"type":"message","id":"deadbeef","parentId":"x","timestamp":"t","n":5,"mess');
		expect(readSessionInfo(file)?.messageCount).toBe(4);
	});

	it("counts correctly when the last line is too long to find its start cheaply", () => {
		const home = tempDir();
		const store = SessionStore.create({ home, cwd: "/p" });
		store.append({ type: "message", message: user("go") });
		store.append({ type: "message", message: toolResult("y".repeat(5 * 1024 * 1024)) });
		store.close();
		expect(readSessionInfo(store.file!)?.messageCount).toBe(2);
	});

	it("previews a first prompt longer than the part of the file it reads", () => {
		const home = tempDir();
		const file = session(home, "/p", [`please ${"look at this ".repeat(10_000)}`]);
		const info = readSessionInfo(file)!;
		expect(info.firstPrompt.startsWith("please look at this look at this")).toBe(true);
		expect(info.firstPrompt.length).toBeLessThanOrEqual(200);
		expect(info.messageCount).toBe(2);
	});

	it("reads only the head and tail: a 2 GB sparse session lists at once", () => {
		const home = tempDir();
		const file = session(home, "/p", ["start"]);
		const lastLine = readFileSync(file, "utf8").trimEnd().split("\n").at(-1)!;
		const entry = JSON.parse(lastLine);
		const tail = `${JSON.stringify({ ...entry, id: "feedf00d", n: 123_456 })}\n`;
		// Write the final line 2 GB into the file; the gap is a hole the filesystem does not store.
		const fd = openSync(file, "r+");
		writeSync(fd, `\n${tail}`, 2 * 1024 ** 3);
		closeSync(fd);
		const started = Date.now();
		const info = readSessionInfo(file)!;
		expect(info.messageCount).toBe(123_456);
		expect(info.firstPrompt).toBe("start");
		// Reading 2 GB would take many seconds; reading the ends takes milliseconds.
		expect(Date.now() - started).toBeLessThan(2000);
	});

	it("lists 1,000 sessions, all of them correctly", () => {
		const home = tempDir();
		const dir = sessionDirFor(home, "/big");
		mkdirSync(dir, { recursive: true });
		const header = (id: string) => JSON.stringify({ type: "session", version: 1, id, created: "2024-01-01T00:00:00.000Z", cwd: "/big" });
		const line = (n: number, text: string) =>
			JSON.stringify({ type: "message", id: `e${n}`, parentId: null, timestamp: "2024-01-01T00:00:00.000Z", n, message: user(text) });
		for (let i = 0; i < 1000; i++) {
			const id = `id-${String(i).padStart(4, "0")}`;
			const body = [header(id), line(1, `prompt ${i}`), line(2, "more"), line(3, "z".repeat(i * 10))].join("\n");
			writeFileSync(join(dir, `2024-01-01T00-00-00-000Z_${id}.jsonl`), `${body}\n`);
		}
		const infos = listSessions(home, "/big");
		expect(infos).toHaveLength(1000);
		expect(infos.every((info) => info.messageCount === 3)).toBe(true);
		expect(new Set(infos.map((info) => info.firstPrompt)).size).toBe(1000);
	});
});

describe("newestSessionFile", () => {
	it("picks the most recently written session of the cwd", () => {
		const home = tempDir();
		session(home, "/p", ["old"], new Date("2024-01-01T00:00:00Z"));
		const newest = session(home, "/p", ["new"], new Date("2024-03-01T00:00:00Z"));
		session(home, "/p", ["middle"], new Date("2024-02-01T00:00:00Z"));
		expect(newestSessionFile(home, "/p")).toBe(newest);
		expect(newestSessionFile(home, "/elsewhere")).toBeUndefined();
	});

	it("skips a newer file that is not a session of this cwd", () => {
		const home = tempDir();
		const real = session(home, "/p", ["real"], new Date("2024-01-01T00:00:00Z"));
		writeFileSync(join(sessionDirFor(home, "/p"), "zzz.jsonl"), "junk\n");
		expect(newestSessionFile(home, "/p")).toBe(real);
	});
});

function storedSession(home: string, cwd: string): SessionStore {
	const store = SessionStore.create({ home, cwd });
	store.append({ type: "message", message: user("hi") });
	store.close();
	return store;
}

describe("resolveSessionArgument", () => {
	it("takes an absolute or relative path as is", () => {
		const home = tempDir();
		const store = storedSession(home, "/p");
		expect(resolveSessionArgument(store.file!, home, "/p")).toBe(store.file);
		expect(resolveSessionArgument(relative(home, store.file!), home, home)).toBe(store.file);
	});

	it("refuses an empty name in words that fit every caller, naming no command-line flag", () => {
		expect(() => resolveSessionArgument("  ", tempDir(), "/p")).toThrow(/^A session is named by a session file path or an id prefix; none was given\.$/);
	});

	it("says so when a path does not exist", () => {
		const home = tempDir();
		expect(() => resolveSessionArgument("./nope.jsonl", home, home)).toThrow(`No session file at ${join(home, "nope.jsonl")}`);
	});

	it("finds a session by id prefix, in this directory first and then anywhere", () => {
		const home = tempDir();
		const here = storedSession(home, "/p");
		const there = storedSession(home, "/q");
		expect(resolveSessionArgument(here.id.slice(0, 8), home, "/p")).toBe(here.file);
		expect(resolveSessionArgument(there.id.slice(0, 8), home, "/p")).toBe(there.file);
		expect(sessionIdFromFileName(here.file!)).toBe(here.id);
	});

	it("reports an ambiguous prefix with the candidates, and an unknown one with guidance", () => {
		const home = tempDir();
		const a = storedSession(home, "/p");
		const dir = join(home, "sessions", cwdFolderName("/p"));
		// A second id sharing the first's first character, to make a one-character prefix ambiguous.
		const twin = `${a.id[0]}0000000-0000-4000-8000-000000000000`;
		writeFileSync(join(dir, `2024-01-01T00-00-00-000Z_${twin}.jsonl`), "");
		expect(() => resolveSessionArgument(a.id[0]!, home, "/p")).toThrow(/ambiguous[\s\S]*Give more characters/);
		expect(() => resolveSessionArgument("zzzz", home, "/p")).toThrow(/No session with an id starting with "zzzz" under .*\. \/resume lists this directory's sessions\.$/);
		// The caller says how its user lists them (the command line: its flag).
		expect(() => resolveSessionArgument("zzzz", home, "/p", "Run `loom -r` to list this directory's sessions.")).toThrow(/\. Run `loom -r` to list this directory's sessions\.$/);
	});
});
