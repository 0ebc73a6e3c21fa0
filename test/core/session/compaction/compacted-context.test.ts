import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { AgentMessage, AssistantMessage, ToolResultMessage } from "../../../../src/core/index.js";
import {
	SUMMARY_LEAD_IN,
	applyCompactionToLoopMessages,
	buildCompactedContext,
	findCutPoint,
	compactionSummaryToUser,
	isCompactionSummary,
} from "../../../../src/core/session/compaction/index.js";
import { SessionStore, buildSessionContext } from "../../../../src/core/session/index.js";
import { tempDir } from "../../../support/temp-dir.js";
import { assistant, call, conversation, result, user } from "./fixtures.js";

function newStore(): SessionStore {
	return SessionStore.create({ home: tempDir("loom-compaction-"), cwd: "/work/project" });
}

function appendAll(store: SessionStore, messages: AgentMessage[]): void {
	for (const message of messages) store.append({ type: "message", message });
}

/** Every tool result in the view follows the assistant message that made its call. */
function expectNoOrphanToolResults(messages: AgentMessage[]): void {
	const calls = new Set<string>();
	for (const message of messages) {
		if (message.role === "assistant") for (const part of (message as AssistantMessage).content) if (part.type === "toolCall") calls.add(part.id);
		if (message.role === "toolResult") expect(calls.has((message as ToolResultMessage).toolCallId)).toBe(true);
	}
}

describe("buildCompactedContext", () => {
	it("without a compaction is every message, as the plain session context", () => {
		const store = newStore();
		appendAll(store, conversation(3, 4));
		store.append({ type: "model_change", provider: "openai", modelId: "m" });
		const view = buildCompactedContext(store.entries);
		expect(view.messages).toEqual(buildSessionContext(store.entries).messages);
		expect(view.compaction).toBeUndefined();
		expect(view.viewStartIndex).toBe(0);
		store.close();
	});

	it("is summary + kept entries + later entries, and resuming the file rebuilds the same view", async () => {
		const store = newStore();
		const older = conversation(11, 8);
		appendAll(store, older);
		const cut = findCutPoint(store.entries, 3000)!;
		expect(cut.firstKeptIndex).toBeGreaterThan(0);
		const kept = older.slice(cut.firstKeptIndex);
		store.append({ type: "compaction", summary: "## Goal\nMake the tests pass", firstKeptEntryId: cut.firstKeptEntryId!, tokensBefore: 12345 });
		const later = [user("and now?"), assistant("", [call("n1", "bash", { command: "npm test" })]), result("n1", "bash", "ok"), assistant("All green.")];
		appendAll(store, later);

		const view = buildCompactedContext(store.entries);
		expect(view.messages.length).toBe(1 + kept.length + later.length);
		const [summary, ...rest] = view.messages;
		if (!isCompactionSummary(summary!)) throw new Error("the view should open with the summary");
		expect(summary.tokensBefore).toBe(12345);
		expect(compactionSummaryToUser(summary).content).toBe(`${SUMMARY_LEAD_IN}\n\n<summary>\n## Goal\nMake the tests pass\n</summary>`);
		expect(rest).toEqual([...kept, ...later]);
		expectNoOrphanToolResults(view.messages);
		expect(view.compaction).toMatchObject({ firstKeptEntryId: cut.firstKeptEntryId, tokensBefore: 12345 });
		expect(view.viewStartIndex).toBe(cut.firstKeptIndex);

		// The file keeps every original entry; the compaction is one more line.
		const lines = readFileSync(store.file!, "utf8").trim().split("\n").map((line) => JSON.parse(line));
		expect(lines.length).toBe(1 + older.length + 1 + later.length);
		expect(lines.filter((line) => line.type === "compaction")).toHaveLength(1);
		store.close();

		const resumed = await SessionStore.open(store.file!);
		expect(buildCompactedContext(resumed.entries).messages).toEqual(view.messages);
		resumed.close();
	});

	it("uses the latest of several compactions", () => {
		const store = newStore();
		appendAll(store, conversation(5, 6));
		const first = findCutPoint(store.entries, 2000)!;
		store.append({ type: "compaction", summary: "first", firstKeptEntryId: first.firstKeptEntryId!, tokensBefore: 1 });
		appendAll(store, conversation(6, 6));
		const second = findCutPoint(store.entries, 2000, first.firstKeptIndex)!;
		store.append({ type: "compaction", summary: "second", firstKeptEntryId: second.firstKeptEntryId!, tokensBefore: 2 });
		const view = buildCompactedContext(store.entries);
		expect(view.messages[0]).toMatchObject({ role: "compactionSummary", summary: "second" });
		expect(view.messages.filter(isCompactionSummary)).toHaveLength(1);
		const expected = store.entries.slice(second.firstKeptIndex).flatMap((entry) => (entry.type === "message" ? [entry.message] : []));
		expect(view.messages.slice(1)).toEqual(expected);
		store.close();
	});

	it("stays valid for a provider when the kept entry id is missing or points at a tool result", () => {
		const store = newStore();
		appendAll(store, [user("q"), assistant("", [call("c1", "read", { path: "a" })])]);
		const resultEntry = store.append({ type: "message", message: result("c1", "read", "content") });
		appendAll(store, [assistant("done")]);
		// A hand-edited file: the kept part would start with a tool result whose call was summarised.
		store.append({ type: "compaction", summary: "s", firstKeptEntryId: resultEntry.id, tokensBefore: 0 });
		expect(buildCompactedContext(store.entries).messages.map((m) => m.role)).toEqual(["compactionSummary", "assistant"]);

		store.append({ type: "compaction", summary: "s2", firstKeptEntryId: "no-such-entry", tokensBefore: 0 });
		appendAll(store, [user("after")]);
		const view = buildCompactedContext(store.entries);
		expect(view.messages.map((m) => m.role)).toEqual(["compactionSummary", "user"]);
		expect(view.messages[1]).toMatchObject({ role: "user", content: "after" });
		store.close();
	});
});

describe("applyCompactionToLoopMessages (a compaction during a run, through transformContext)", () => {
	function messagesOf(store: SessionStore): AgentMessage[] {
		return store.entries.flatMap((entry) => (entry.type === "message" ? [entry.message] : []));
	}

	it("maps the loop's full message list to the same view a resume builds", () => {
		const store = newStore();
		appendAll(store, conversation(21, 8));
		const loopMessages = messagesOf(store);
		expect(applyCompactionToLoopMessages(loopMessages, store.entries)).toEqual(loopMessages);

		const cut = findCutPoint(store.entries, 2500)!;
		store.append({ type: "compaction", summary: "mid-run summary", firstKeptEntryId: cut.firstKeptEntryId!, tokensBefore: 9 });
		const view = applyCompactionToLoopMessages(loopMessages, store.entries);
		expect(view).toEqual(buildCompactedContext(store.entries).messages);
		expect(loopMessages.length).toBe(messagesOf(store).length);

		// The run goes on: new messages follow the view, and a second compaction replaces the first summary.
		const more = conversation(22, 6);
		appendAll(store, more);
		const runMessages = [...view, ...more];
		const second = findCutPoint(store.entries, 2500, cut.firstKeptIndex)!;
		store.append({ type: "compaction", summary: "second summary", firstKeptEntryId: second.firstKeptEntryId!, tokensBefore: 10 });
		const secondView = applyCompactionToLoopMessages(runMessages, store.entries);
		expect(secondView).toEqual(buildCompactedContext(store.entries).messages);
		expect(secondView.filter(isCompactionSummary)).toHaveLength(1);
		store.close();
	});

	it("finds the first kept message without object identity (messages copied), and leaves unknown lists alone", () => {
		const store = newStore();
		appendAll(store, conversation(23, 8));
		const cut = findCutPoint(store.entries, 2500)!;
		store.append({ type: "compaction", summary: "s", firstKeptEntryId: cut.firstKeptEntryId!, tokensBefore: 0 });
		const copied = structuredClone(messagesOf(store));
		expect(applyCompactionToLoopMessages(copied, store.entries)).toEqual(buildCompactedContext(store.entries).messages);
		const unrelated = [user("something else")];
		expect(applyCompactionToLoopMessages(unrelated, store.entries)).toEqual(unrelated);
		store.close();
	});
});
