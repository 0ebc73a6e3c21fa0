import { describe, expect, it } from "vitest";
import type { AgentMessage, AssistantMessage, ToolResultMessage } from "../../../../src/core/index.js";
import { estimateTokens, findCutPoint } from "../../../../src/core/session/compaction/index.js";
import type { SessionEntry } from "../../../../src/core/session/store/session-entries.js";
import { asEntries, assistant, call, conversation, result, user } from "./fixtures.js";

function callIds(messages: AgentMessage[]): Set<string> {
	const ids = new Set<string>();
	for (const message of messages) {
		if (message.role !== "assistant") continue;
		for (const part of (message as AssistantMessage).content) if (part.type === "toolCall") ids.add(part.id);
	}
	return ids;
}

function resultIds(messages: AgentMessage[]): Set<string> {
	return new Set(messages.filter((m): m is ToolResultMessage => m.role === "toolResult").map((m) => m.toolCallId));
}

/** Largest assistant message together with the tool results that answer it. */
function largestTurn(messages: AgentMessage[]): number {
	let largest = 0;
	let current = 0;
	for (const message of messages) {
		if (message.role === "toolResult") current += estimateTokens(message);
		else current = estimateTokens(message);
		largest = Math.max(largest, current);
	}
	return largest;
}

const sum = (messages: AgentMessage[]) => messages.reduce((total, message) => total + estimateTokens(message), 0);

describe("findCutPoint", () => {
	it("never separates a tool call from its results, over many generated conversations", () => {
		let checked = 0;
		for (let seed = 1; seed <= 40; seed++) {
			const messages = conversation(seed, 12);
			for (const keep of [0, 300, 1500, 4000, 9000]) {
				const cut = findCutPoint(messages, keep);
				if (!cut) continue;
				checked++;
				const before = messages.slice(0, cut.firstKeptIndex);
				const kept = messages.slice(cut.firstKeptIndex);
				expect(["user", "assistant"]).toContain(kept[0]!.role);
				// Every call summarised has its results summarised; every kept result has its call kept.
				for (const id of callIds(before)) expect(resultIds(kept).has(id)).toBe(false);
				for (const id of resultIds(kept)) expect(callIds(kept).has(id)).toBe(true);
				expect(cut.keptTokens).toBe(sum(kept));
			}
		}
		expect(checked).toBeGreaterThan(150);
	});

	it("keeps about keepRecentTokens: within one assistant turn of the budget", () => {
		let checked = 0;
		for (let seed = 1; seed <= 40; seed++) {
			const messages = conversation(seed, 15);
			const total = sum(messages);
			for (const keep of [1000, 3000, 6000]) {
				if (total <= keep + largestTurn(messages)) continue;
				const cut = findCutPoint(messages, keep)!;
				expect(cut).toBeDefined();
				const slack = largestTurn(messages);
				expect(cut.keptTokens).toBeGreaterThanOrEqual(keep - slack);
				expect(cut.keptTokens).toBeLessThanOrEqual(keep + slack);
				checked++;
			}
		}
		expect(checked).toBeGreaterThan(100);
	});

	it("cuts before a user message or an assistant message at the budget boundary", () => {
		const messages = [user("u".repeat(4000)), assistant("a".repeat(4000)), user("v".repeat(400)), assistant("b".repeat(400))];
		// 1000 + 1000 + 100 + 100 tokens; keeping 200 keeps the last exchange exactly.
		expect(findCutPoint(messages, 200)).toEqual({ firstKeptIndex: 2, keptTokens: 200, firstKeptEntryId: undefined });
		// The message that reaches the budget is kept whole.
		expect(findCutPoint(messages, 150)?.firstKeptIndex).toBe(2);
		expect(findCutPoint(messages, 250)?.firstKeptIndex).toBe(1);
		expect(findCutPoint(messages, 99)?.firstKeptIndex).toBe(3);
	});

	it("keeps a whole tool batch when the budget ends inside its results", () => {
		const messages = [
			user("fix the bug"),
			assistant("looking", [call("c1", "read", { path: "a.ts" })]),
			result("c1", "read", "x".repeat(2000)),
			assistant("", [call("c2", "read", { path: "b.ts" }), call("c3", "read", { path: "c.ts" })]),
			result("c2", "read", "y".repeat(40_000)),
			result("c3", "read", "z".repeat(40_000)),
		];
		const cut = findCutPoint(messages, 1000)!;
		expect(cut.firstKeptIndex).toBe(3);
		expect(messages.slice(cut.firstKeptIndex).map((m) => m.role)).toEqual(["assistant", "toolResult", "toolResult"]);
	});

	it("returns nothing when the conversation fits in the budget or nothing precedes the only cut", () => {
		const small = [user("hi"), assistant("hello")];
		expect(findCutPoint(small, 20_000)).toBeUndefined();
		expect(findCutPoint([user("x".repeat(100_000))], 10)).toBeUndefined();
		expect(findCutPoint([], 0)).toBeUndefined();
	});

	it("with a budget of 0 keeps only the start of the latest turn (forced compaction)", () => {
		const messages = [user("a"), assistant("b"), user("c"), assistant("", [call("c1", "bash", { command: "ls" })]), result("c1", "bash", "out")];
		expect(findCutPoint(messages, 0)?.firstKeptIndex).toBe(3);
	});

	it("never cuts before a failed answer, so after an overflow the prompt that overflowed stays verbatim", () => {
		const overflowed = { ...assistant(""), stopReason: "error" as const, errorMessage: "prompt is too long" };
		const messages = [user("a".repeat(4000)), assistant("b".repeat(4000)), user("please refactor"), overflowed];
		expect(findCutPoint(messages, 0)?.firstKeptIndex).toBe(2);
	});

	it("works on session entries: skips non-message entries, names the kept entry, honours the view start", () => {
		const messages = conversation(7, 10);
		const entries: SessionEntry[] = asEntries(messages);
		entries.splice(5, 0, { type: "model_change", id: "m1", parentId: "e5", timestamp: new Date().toISOString(), n: 5, provider: "p", modelId: "x" });
		const cut = findCutPoint(entries, 2000)!;
		const kept = entries[cut.firstKeptIndex]!;
		expect(kept.type).toBe("message");
		expect(cut.firstKeptEntryId).toBe(kept.id);
		expect(["user", "assistant"]).toContain((kept as Extract<SessionEntry, { type: "message" }>).message.role);
		const byMessages = findCutPoint(messages, 2000)!;
		expect(cut.keptTokens).toBe(byMessages.keptTokens);

		// From a later view start, the cut is after it, and with everything after it in budget there is no cut.
		const start = cut.firstKeptIndex;
		const later = findCutPoint(entries, 500, start);
		if (later) expect(later.firstKeptIndex).toBeGreaterThan(start);
		expect(findCutPoint(entries, 1_000_000, start)).toBeUndefined();
	});
});
