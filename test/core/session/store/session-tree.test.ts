// A session file's branches: the store moves its leaf by appending a branch entry (nothing is removed), the chain
// follows parentId from the current leaf, and the tree of prompts shows where the conversation branched.
import { appendFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SessionStore, loadSessionFile, sessionTree } from "../../../../src/core/session/index.js";
import { tempDir } from "../../../support/temp-dir.js";
import { assistant, user } from "../session-fixtures.js";

function exchange(store: SessionStore, question: string): string {
	const prompt = store.append({ type: "message", message: user(question) });
	store.append({ type: "message", message: assistant(`answer to ${question}`) });
	return prompt.id;
}

function texts(store: SessionStore): string[] {
	return store.entries.flatMap((entry) => (entry.type !== "message" ? [] : entry.message.role === "user" ? [String(entry.message.content)] : ["answer"]));
}

describe("moving a session's leaf", () => {
	it("continues from the chosen entry, keeps every earlier line of the file, and reopens on the new branch without warnings", async () => {
		const home = tempDir();
		const store = SessionStore.create({ home, cwd: "/p" });
		exchange(store, "one");
		const two = exchange(store, "two");
		exchange(store, "three");
		const before = store.allEntries.length;

		// Back to before "two": the conversation is "one" and its answer.
		const twoEntry = store.entries.find((entry) => entry.id === two)!;
		const branch = store.branch(twoEntry.parentId);
		expect(branch).toMatchObject({ type: "branch", parentId: twoEntry.parentId });
		expect(store.messageCount).toBe(2);
		exchange(store, "two again");

		expect(store.allEntries).toHaveLength(before + 3);
		const file = store.file!;
		store.close();
		const loaded = await loadSessionFile(file);
		expect(loaded.entries.map((entry) => entry.id)).toEqual(store.allEntries.map((entry) => entry.id));
		const reopened = await SessionStore.open(file);
		expect(reopened.warnings).toEqual([]);
		expect(reopened.entries.filter((entry) => entry.type === "message")).toHaveLength(4);
		expect(reopened.messageCount).toBe(4);
		reopened.close();
	});

	it("still warns about entries off the chain that no branch entry explains (a second writer)", async () => {
		const home = tempDir();
		const store = SessionStore.create({ home, cwd: "/p" });
		const one = exchange(store, "one");
		store.branch(store.entries.find((entry) => entry.id === one)!.parentId);
		exchange(store, "other");
		const file = store.file!;
		store.close();
		// A line another process appended after "one"'s answer, without a branch entry.
		const answer = (await loadSessionFile(file)).entries[1]!;
		appendFileSync(file, `${JSON.stringify({ type: "message", id: "zz000001", parentId: answer.id, timestamp: new Date().toISOString(), n: 3, message: user("stray") })}\n`);
		const reopened = await SessionStore.open(file);
		// The stray line is the last entry, so it is the conversation's end; the branch made by the rewind is not warned about.
		expect(reopened.warnings.join("\n")).toMatch(/2 entries are not on the conversation's chain/);
		reopened.close();
	});

	it("refuses an entry that is not in the session", () => {
		const store = SessionStore.create({ home: tempDir(), cwd: "/p", persist: false });
		expect(() => store.branch("nope")).toThrow("This session has no entry nope.");
	});

	it("forks the conversation up to an entry into a new file naming its parent", () => {
		const home = tempDir();
		const store = SessionStore.create({ home, cwd: "/p" });
		exchange(store, "one");
		const two = exchange(store, "two");
		const fork = store.forkAt(store.entries.find((entry) => entry.id === two)!.id, { home, cwd: "/p" });
		expect(fork.header.parentSession).toBe(store.file);
		expect(fork.entries.map((entry) => entry.id)).toEqual(store.entries.slice(0, 3).map((entry) => entry.id));
		expect(fork.file).not.toBe(store.file);
	});
});

describe("the tree of prompts", () => {
	it("is a plain list while the conversation never branched, and marks where it is", () => {
		const store = SessionStore.create({ home: tempDir(), cwd: "/p", persist: false });
		exchange(store, "one");
		exchange(store, "two");
		const tree = sessionTree(store.allEntries, store.lastEntryId);
		expect(tree.branched).toBe(false);
		expect(tree.branches).toBe(1);
		expect(tree.rows.map((row) => [row.prefix, row.text, row.here, row.messages])).toEqual([
			["", "one", false, 4],
			["", "two", true, 4],
		]);
	});

	it("draws a branch where a rewind went back, and each row leads to the newest end of its branch", () => {
		const store = SessionStore.create({ home: tempDir(), cwd: "/p", persist: false });
		exchange(store, "one");
		const two = exchange(store, "two");
		exchange(store, "three");
		const oldEnd = store.lastEntryId;
		store.branch(store.entries.find((entry) => entry.id === two)!.parentId);
		exchange(store, "two, take two");
		expect(texts(store)).toEqual(["one", "answer", "two, take two", "answer"]);

		const tree = sessionTree(store.allEntries, store.lastEntryId);
		expect(tree.branched).toBe(true);
		expect(tree.rows.map((row) => `${row.prefix}${row.text}${row.here ? " ●" : ""}${row.current ? " (current)" : ""}`)).toEqual([
			"one (current)",
			"├─ two",
			"│  three",
			"└─ two, take two ● (current)",
		]);
		const three = tree.rows.find((row) => row.text === "three")!;
		expect(three.leafId).toBe(oldEnd);
		expect(three.messages).toBe(6);
		expect(tree.rows.find((row) => row.text === "two")!.leafId).toBe(oldEnd);

		// Switching back: the old branch is the conversation again, and the rewind's branch is kept.
		store.branch(three.leafId);
		expect(texts(store)).toEqual(["one", "answer", "two", "answer", "three", "answer"]);
		const after = sessionTree(store.allEntries, store.lastEntryId);
		expect(after.rows.filter((row) => row.here).map((row) => row.text)).toEqual(["three"]);
		expect(after.rows).toHaveLength(4);
	});

	it("knows the conversation is at its start after a rewind to before the first prompt, beside the branch it left", () => {
		const store = SessionStore.create({ home: tempDir(), cwd: "/p", persist: false });
		const one = exchange(store, "one");
		store.branch(store.entries.find((entry) => entry.id === one)!.parentId);
		expect(store.entries.filter((entry) => entry.type === "message")).toEqual([]);
		const tree = sessionTree(store.allEntries, store.lastEntryId);
		expect(tree.at).toBeNull();
		expect(tree.branched).toBe(true);
		expect(tree.branches).toBe(2);
		expect(tree.rows.map((row) => [row.kind, row.prefix, row.text, row.here, row.current, row.messages, row.leafId])).toEqual([
			["prompt", "├─ ", "one", false, false, 2, store.allEntries[1]!.id],
			["position", "└─ ", "", true, true, 0, null],
		]);
	});

	it("after a rewind with no prompt since, shows the branch it left and where the conversation is as two branches, each with its own count", () => {
		const store = SessionStore.create({ home: tempDir(), cwd: "/p", persist: false });
		exchange(store, "one");
		const two = exchange(store, "two");
		store.append({ type: "message", message: user("two, follow-up") });
		store.append({ type: "message", message: assistant("more") });
		const oldEnd = store.lastEntryId;
		const before = store.entries.find((entry) => entry.id === two)!.parentId;
		store.branch(before);
		expect(store.messageCount).toBe(2);

		const tree = sessionTree(store.allEntries, store.lastEntryId);
		expect(tree.branched).toBe(true);
		expect(tree.branches).toBe(2);
		expect(tree.at).toBe(before);
		expect(tree.rows.map((row) => `${row.prefix}${row.kind === "position" ? "(here)" : row.text}${row.here ? " ●" : ""}${row.current ? " (current)" : ""} ${row.messages}`)).toEqual([
			"one (current) 2",
			"├─ two 6",
			"│  two, follow-up 6",
			"└─ (here) ● (current) 2",
		]);
		// The branch left behind leads to its own end; the trunk and the position lead to where the conversation is.
		expect(tree.rows[1]!.leafId).toBe(oldEnd);
		expect(tree.rows[0]!.leafId).toBe(before);
		expect(tree.rows[3]!.leafId).toBe(before);

		// A /model after the rewind is still on the new branch, not on the old one.
		store.append({ type: "model_change", provider: "openai", modelId: "other" });
		const moved = sessionTree(store.allEntries, store.lastEntryId);
		expect(moved.rows.map((row) => [row.kind, row.here, row.messages])).toEqual([
			["prompt", false, 2],
			["prompt", false, 6],
			["prompt", false, 6],
			["position", true, 2],
		]);
		expect(moved.rows[3]!.leafId).toBe(store.lastEntryId);
	});

	it("leads a row on the current path to where the conversation is, even when another branch was written later", () => {
		const store = SessionStore.create({ home: tempDir(), cwd: "/p", persist: false });
		exchange(store, "one");
		const two = exchange(store, "two");
		const firstEnd = store.lastEntryId;
		store.branch(store.entries.find((entry) => entry.id === two)!.parentId);
		exchange(store, "two again");
		store.branch(firstEnd);
		const tree = sessionTree(store.allEntries, store.lastEntryId);
		expect(tree.branches).toBe(2);
		expect(tree.rows.map((row) => `${row.prefix}${row.text}${row.here ? " ●" : ""} ${row.messages}`)).toEqual(["one 4", "├─ two ● 4", "└─ two again 4"]);
		expect(tree.rows[0]!.leafId).toBe(firstEnd);
		expect(tree.rows[2]!.leafId).not.toBe(firstEnd);
	});
});
