import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AssistantMessage, Message, Model, ToolResultMessage } from "../../../src/core/index.js";
import {
	emptyUsage,
	NO_RESULT_TEXT,
	normalizeAnthropicToolCallId,
	normalizeOpenAIToolCallId,
	streamModel,
	transformMessages,
} from "../../../src/core/ai/index.js";
import { type ScriptedModelServer, startScriptedModelServer } from "../../support/scripted-model-server.mjs";
import { collect, serverModel, TEST_KEY, user } from "./providers/helpers.js";

const target: Model = {
	id: "claude-sonnet-5-5",
	name: "Sonnet",
	api: "anthropic-messages",
	provider: "anthropic",
	baseUrl: "http://unused",
	reasoning: true,
	input: ["text", "image"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1000,
	maxTokens: 100,
};

function assistant(content: AssistantMessage["content"], extra: Partial<AssistantMessage> = {}): AssistantMessage {
	return {
		role: "assistant",
		content,
		api: "anthropic-messages",
		provider: "anthropic",
		model: "claude-sonnet-5-5",
		usage: emptyUsage(),
		stopReason: content.some((b) => b.type === "toolCall") ? "toolUse" : "stop",
		timestamp: 1,
		...extra,
	};
}

function result(toolCallId: string, text = "done"): ToolResultMessage {
	return { role: "toolResult", toolCallId, toolName: "read", content: [{ type: "text", text }], isError: false, timestamp: 2 };
}

const call = (id: string) => ({ type: "toolCall" as const, id, name: "read", arguments: { path: id } });

describe("transformMessages", () => {
	it("drops errored and aborted assistant messages and results that lost their call", () => {
		const messages: Message[] = [
			user("one"),
			assistant([{ type: "text", text: "half" }, call("t1")], { stopReason: "error", errorMessage: "cut" }),
			result("t1"),
			user("two"),
			assistant([{ type: "text", text: "stopped" }], { stopReason: "aborted" }),
			user("three"),
		];
		expect(transformMessages(messages, target).map((m) => (m.role === "user" ? m.content : m.role))).toEqual([
			"one",
			"two",
			"three",
		]);
	});

	it("gives every tool call a result, a synthetic error one when none was recorded", () => {
		const out = transformMessages([user("go"), assistant([call("a"), call("b")]), result("a"), user("next")], target);
		expect(out.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "user"]);
		expect(out[3]).toMatchObject({ toolCallId: "b", isError: true, content: [{ type: "text", text: NO_RESULT_TEXT }] });
		// A trailing call without a result is answered too.
		const trailing = transformMessages([user("go"), assistant([call("c")])], target);
		expect(trailing.at(-1)).toMatchObject({ role: "toolResult", toolCallId: "c", isError: true });
	});

	it("keeps thinking for the same model and turns another provider's thinking into text", () => {
		const own = assistant([{ type: "thinking", thinking: "mine", thinkingSignature: "sig" }, { type: "text", text: "a" }]);
		const foreign = assistant(
			[
				{ type: "thinking", thinking: "theirs" },
				{ type: "thinking", thinking: "", thinkingSignature: "enc", redacted: true },
				{ type: "text", text: "b" },
			],
			{ api: "openai-completions", provider: "openai", model: "gpt-5.6-terra" },
		);
		const out = transformMessages([user("1"), own, user("2"), foreign, user("3")], target) as AssistantMessage[];
		expect(out[1]!.content).toEqual(own.content);
		expect(out[3]!.content).toEqual([
			{ type: "text", text: "theirs" },
			{ type: "text", text: "b" },
		]);
	});

	it("replaces images with a note for a model without image input, and keeps them otherwise", () => {
		const image = { type: "image" as const, data: "aGk=", mimeType: "image/png" };
		const messages: Message[] = [{ role: "user", content: [{ type: "text", text: "see" }, image], timestamp: 0 }];
		const textOnly = transformMessages(messages, { ...target, input: ["text"] });
		expect(textOnly[0]).toMatchObject({ content: [{ type: "text", text: "see" }, { type: "text", text: expect.stringMatching(/image omitted/) }] });
		expect(transformMessages(messages, target)[0]).toEqual(messages[0]);
	});

	it("rewrites tool call ids for the target API and keeps call and result paired", () => {
		const out = transformMessages([user("go"), assistant([call("functions.read:0")]), result("functions.read:0")], target, {
			normalizeToolCallId: normalizeAnthropicToolCallId,
		});
		const sent = (out[1] as AssistantMessage).content[0];
		expect(sent).toMatchObject({ id: "functions_read_0" });
		expect(out[2]).toMatchObject({ toolCallId: "functions_read_0" });
	});
});

describe("conversion in real requests", () => {
	let server: ScriptedModelServer;
	beforeAll(async () => {
		server = await startScriptedModelServer();
	});
	afterAll(() => server.close());

	it("pairs results in order with calls of one message that share an id, giving each call its own id", () => {
		const messages: Message[] = [user("go"), assistant([call("dup1"), call("dup1"), call("dup1")]), result("dup1", "a"), result("dup1", "b"), user("next")];
		const out = transformMessages(messages, target);
		const ids = (out[1] as AssistantMessage).content.map((block) => (block.type === "toolCall" ? block.id : ""));
		expect(ids[0]).toBe("dup1");
		expect(new Set(ids).size).toBe(3);
		expect(out.slice(2, 5).map((m) => [(m as ToolResultMessage).toolCallId, (m as ToolResultMessage).content[0]])).toEqual([
			[ids[0], { type: "text", text: "a" }],
			[ids[1], { type: "text", text: "b" }],
			[ids[2], { type: "text", text: NO_RESULT_TEXT }],
		]);
	});

	it("keeps calls apart whose ids become equal once shortened for the target API", () => {
		const long = "x".repeat(45);
		const messages: Message[] = [user("go"), assistant([call(`${long}-1`), call(`${long}-2`)]), result(`${long}-2`, "two"), result(`${long}-1`, "one")];
		const out = transformMessages(messages, target, { normalizeToolCallId: normalizeOpenAIToolCallId });
		const ids = (out[1] as AssistantMessage).content.map((block) => (block.type === "toolCall" ? block.id : ""));
		expect(new Set(ids).size).toBe(2);
		expect(ids.every((id) => id.length <= 40)).toBe(true);
		expect(out.slice(2).map((m) => [(m as ToolResultMessage).toolCallId, ((m as ToolResultMessage).content[0] as { text: string }).text])).toEqual([
			[ids[1], "two"],
			[ids[0], "one"],
		]);
	});

	it("sends another provider's history to Anthropic without its reasoning blocks or dangling calls", async () => {
		const fromOpenAI = assistant([{ type: "thinking", thinking: "pondering" }, { type: "text", text: "Let me read." }, call("call_x")], {
			api: "openai-completions",
			provider: "openai",
			model: "gpt-5.6-terra",
		});
		await collect(streamModel(serverModel(server, "anthropic-messages"), { messages: [user("go"), fromOpenAI, user("stop that")] }, { apiKey: TEST_KEY }));
		const messages = server.requests.at(-1)!.body.messages;
		expect(messages[1]).toEqual({
			role: "assistant",
			content: [
				{ type: "text", text: "pondering" },
				{ type: "text", text: "Let me read." },
				{ type: "tool_use", id: "call_x", name: "read", input: { path: "call_x" } },
			],
		});
		expect(messages[2].content[0]).toMatchObject({ type: "tool_result", tool_use_id: "call_x", is_error: true });
		expect(messages[3]).toMatchObject({ role: "user" });
	});
});
