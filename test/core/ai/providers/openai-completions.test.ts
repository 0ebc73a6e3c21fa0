import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import type { AssistantMessage, ToolResultMessage } from "../../../../src/core/index.js";
import { streamModel } from "../../../../src/core/ai/index.js";
import { collect, context, serverModel, TEST_KEY, types, user } from "./helpers.js";
import { useScriptedServer } from "../../../support/use-scripted-server.js";

const server = useScriptedServer();

const model = () => serverModel(server, "openai-completions");

describe("openai-completions through the openai SDK", () => {
	it("streams content and asks for usage in the stream", async () => {
		server.enqueue({ text: "Compatible servers are everywhere.", chunkSize: 4 });
		const { events, message } = await collect(streamModel(model(), context("hi"), { apiKey: TEST_KEY }));

		expect(types(events)[0]).toBe("start");
		expect(types(events).slice(-2)).toEqual(["text_end", "done"]);
		expect(message.content).toEqual([{ type: "text", text: "Compatible servers are everywhere." }]);
		expect(message.stopReason).toBe("stop");
		const request = server.requests[0]!;
		expect(request.path).toBe("/v1/chat/completions");
		expect(request.body).toMatchObject({
			model: "gpt-5.6-terra",
			stream: true,
			stream_options: { include_usage: true },
			messages: [
				{ role: "system", content: "You are a test." },
				{ role: "user", content: "hi" },
			],
		});
		expect(JSON.stringify(request.headers)).not.toContain(TEST_KEY);
	});

	it("works with a base URL without /v1", async () => {
		const bare = serverModel(server, "openai-completions", { baseUrl: server.url });
		const { message } = await collect(streamModel(bare, context(), { apiKey: TEST_KEY }));
		expect(message.content).toEqual([{ type: "text", text: "ok" }]);
		expect(server.requests[0]!.path).toBe("/chat/completions");
	});

	it.each(["reasoning_content", "reasoning"] as const)("reads thinking from %s", async (field) => {
		server.enqueue({ thinking: "Considering options.", text: "Done.", reasoningField: field });
		const { events, message } = await collect(streamModel(model(), context(), { apiKey: TEST_KEY, reasoning: "high" }));
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "Considering options." },
			{ type: "text", text: "Done." },
		]);
		expect(types(events).indexOf("thinking_end")).toBeLessThan(types(events).indexOf("text_start"));
		expect(server.requests[0]!.body.reasoning_effort).toBe("high");
	});

	it("assembles interleaved parallel tool calls by index, tolerating missing ids and usage", async () => {
		const a = { path: "README.md", limit: 200 };
		const b = { command: "ls -la && echo done", timeout: 30 };
		server.enqueue({
			toolCalls: [
				{ name: "read", arguments: a },
				{ name: "bash", arguments: b },
			],
			chunkSize: 5,
			interleave: true,
			omitIds: true,
			omitUsage: true,
			// Paced, so the pieces arrive in separate reads (see the Anthropic test).
			chunkDelayMs: 3,
		});
		const tools = [
			{ name: "read", description: "read", parameters: Type.Object({ path: Type.String() }) },
			{ name: "bash", description: "run", parameters: Type.Object({ command: Type.String() }) },
		];
		const { events, message, previews } = await collect(
			streamModel(model(), { messages: [user("go")], tools }, { apiKey: TEST_KEY }),
		);

		expect(previews.length).toBeGreaterThan(8);
		expect(previews.some((args) => typeof args.command === "string" && args.command !== b.command)).toBe(true);
		const ends = events.flatMap((e) => (e.type === "toolcall_end" ? [e.toolCall] : []));
		expect(ends.map((call) => [call.name, call.arguments])).toEqual([
			["read", a],
			["bash", b],
		]);
		// Generated ids stand in for the missing ones, distinct per call.
		expect(ends[0]!.id).toMatch(/^call_/);
		expect(ends[0]!.id).not.toBe(ends[1]!.id);
		expect(message.stopReason).toBe("toolUse");
		expect(message.usage.totalTokens).toBe(0);
		expect(server.requests[0]!.body.tools[0]).toEqual({
			type: "function",
			function: { name: "read", description: "read", parameters: expect.objectContaining({ type: "object" }) },
		});
	});

	it("gives complete (or empty) arguments at toolcall_end even when the JSON is invalid", async () => {
		server.enqueue({ toolCalls: [{ id: "c1", name: "read", arguments: '{"path": "a.txt", ' }], stopReason: "toolUse" });
		const { events } = await collect(streamModel(model(), context(), { apiKey: TEST_KEY }));
		const end = events.find((e) => e.type === "toolcall_end");
		expect(end?.type === "toolcall_end" && end.toolCall.arguments).toEqual({ path: "a.txt" });
	});

	it("reads the reasoning tokens of the completion where the server reports them", async () => {
		server.enqueue({ thinking: "hm", text: "x", usage: { output: 50, reasoning: 20 } });
		const { message } = await collect(streamModel(model(), context(), { apiKey: TEST_KEY }));
		expect(message.usage).toMatchObject({ output: 50, reasoning: 20 });
	});

	it("splits cached prompt tokens out of prompt_tokens and prices them", async () => {
		server.enqueue({ text: "cached", usage: { input: 800, cacheRead: 200, output: 100 } });
		const { message } = await collect(streamModel(model(), context(), { apiKey: TEST_KEY }));
		expect(message.usage).toMatchObject({ input: 800, cacheRead: 200, output: 100, cacheWrite: 0, totalTokens: 1100 });
		expect(message.usage.cost.total).toBeCloseTo((800 * 3 + 200 * 0.3 + 100 * 15) / 1e6, 12);
	});

	it("maps finish_reason length and content_filter", async () => {
		server.enqueue({ text: "trunc", stopReason: "length" }, { text: "bad", stopReason: "content_filter" });
		const cut = await collect(streamModel(model(), context(), { apiKey: TEST_KEY }));
		expect(cut.message.stopReason).toBe("length");
		const filtered = await collect(streamModel(model(), context(), { apiKey: TEST_KEY }));
		expect(filtered.message.stopReason).toBe("error");
		expect(filtered.message.errorMessage).toMatch(/content filter/);
		expect(filtered.message.content).toEqual([{ type: "text", text: "bad" }]);
	});

	it("sends tool calls and results in chat format, images of results as a following user message", async () => {
		const assistant: AssistantMessage = {
			role: "assistant",
			content: [
				{ type: "text", text: "Reading." },
				{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "a.png" } },
			],
			api: "openai-completions",
			provider: "openai",
			model: "gpt-5.6-terra",
			usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
			stopReason: "toolUse",
			timestamp: 1,
		};
		const result: ToolResultMessage = {
			role: "toolResult",
			toolCallId: "call_1",
			toolName: "read",
			content: [
				{ type: "text", text: "an image" },
				{ type: "image", data: "aGVsbG8=", mimeType: "image/png" },
			],
			isError: false,
			timestamp: 2,
		};
		await collect(streamModel(model(), { messages: [user("look"), assistant, result] }, { apiKey: TEST_KEY }));
		const messages = server.requests[0]!.body.messages;
		expect(messages.slice(1)).toEqual([
			{
				role: "assistant",
				content: "Reading.",
				tool_calls: [{ id: "call_1", type: "function", function: { name: "read", arguments: '{"path":"a.png"}' } }],
			},
			{ role: "tool", tool_call_id: "call_1", content: "an image" },
			{
				role: "user",
				content: [
					{ type: "text", text: "Images returned by the tool calls above:" },
					{ type: "image_url", image_url: { url: "data:image/png;base64,aGVsbG8=" } },
				],
			},
		]);
	});
});
