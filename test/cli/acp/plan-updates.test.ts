// The todo list as ACP's `plan` session update: sent whole at each change and when a conversation with a list opens.
import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../../src/core/index.js";
import { SessionUpdates } from "../../../src/cli/acp/session-updates.js";

const updates = () => new SessionUpdates({ cwd: "/w", tools: () => [], readBefore: () => undefined, usage: () => ({ tokens: 0, contextWindow: 1, cost: 0 }) });

describe("ACP plan updates", () => {
	it("sends the whole todo list as a plan on each change, done as completed, and the list a resumed conversation opens with", () => {
		const changed: SessionEvent = {
			type: "todo_changed",
			items: [
				{ text: "Read", status: "done" },
				{ text: "Fix", status: "in_progress" },
				{ text: "Test", status: "pending" },
			],
		};
		expect(updates().translate(changed)).toEqual([
			{
				sessionUpdate: "plan",
				entries: [
					{ content: "Read", priority: "medium", status: "completed" },
					{ content: "Fix", priority: "medium", status: "in_progress" },
					{ content: "Test", priority: "medium", status: "pending" },
				],
			},
		]);
		const open = (todos?: { text: string; status: "pending" }[]): SessionEvent => ({
			type: "session_open",
			reason: "resume",
			sessionId: "s",
			cwd: "/w",
			provider: "p",
			model: "m",
			thinkingLevel: "off",
			messageCount: 2,
			...(todos ? { todos } : {}),
		});
		expect(updates().translate(open([{ text: "Again", status: "pending" }]))).toEqual([
			{ sessionUpdate: "plan", entries: [{ content: "Again", priority: "medium", status: "pending" }] },
		]);
		expect(updates().translate(open())).toEqual([]);
	});
});
