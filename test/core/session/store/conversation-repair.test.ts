// What repairConversation changes, and above all what it leaves alone: every sequence loom itself records.
import { describe, expect, it } from "vitest";
import type { AssistantMessage } from "../../../../src/core/index.js";
import { LOST_MESSAGE_TEXT, repairConversation } from "../../../../src/core/session/store/conversation-repair.js";
import { assistant, toolResult, user } from "../session-fixtures.js";

function withCall(id: string, stopReason: AssistantMessage["stopReason"] = "toolUse"): AssistantMessage {
	return { ...assistant(""), content: [{ type: "toolCall", id, name: "bash", arguments: {} }], stopReason };
}

describe("repairConversation", () => {
	it("leaves valid conversations as they are, the same array content and no repairs", () => {
		const valid = [user("q"), withCall("call_1"), toolResult("out"), assistant("a"), user("next"), assistant("b")];
		expect(repairConversation(valid)).toEqual({ messages: valid, repairs: [] });
	});

	it("does not judge answers that ended in an error or an abort, nor their calls' results", () => {
		// An overflow retry, an aborted tool batch, then a new prompt: providers never receive the failed answers.
		const errored = { ...assistant("too long"), stopReason: "error" as const };
		const messages = [user("q"), errored, assistant("after compaction"), user("go"), withCall("call_1", "aborted"), toolResult("partial"), user("again")];
		expect(repairConversation(messages).repairs).toEqual([]);
	});

	it("puts a placeholder question before an answer that comes first, and between two answers", () => {
		const { messages, repairs } = repairConversation([assistant("a"), assistant("b")]);
		expect(messages.map((m: any) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
		expect((messages[0] as any).content).toBe(LOST_MESSAGE_TEXT);
		expect(repairs).toHaveLength(2);
	});

	it("drops a result without its call and gives a call without its result an error result", () => {
		const { messages, repairs } = repairConversation([user("q"), toolResult("orphan"), withCall("call_9"), user("next")]);
		expect(messages.map((m: any) => m.role)).toEqual(["user", "assistant", "toolResult", "user"]);
		expect(messages[2]).toMatchObject({ toolCallId: "call_9", isError: true });
		expect(repairs).toEqual([
			"a tool result without its call once; dropped",
			"a tool call without its result once; an error result stands in for it",
		]);
	});
});
