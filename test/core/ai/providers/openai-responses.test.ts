import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import type { AssistantMessage, Message } from "../../../../src/core/index.js";
import { streamModel } from "../../../../src/core/ai/index.js";
import { useScriptedServer } from "../../../support/use-scripted-server.js";
import { assistantFrom, collect, context, serverModel, TEST_KEY, toolResult as result, types, user } from "./helpers.js";

const server = useScriptedServer();

const model = (overrides = {}) => serverModel(server, "openai-responses", overrides);
const assistant = (content: AssistantMessage["content"], extra: Partial<AssistantMessage> = {}) => assistantFrom(model(), content, extra);
const tools = [
	{ name: "read", description: "read a file", parameters: Type.Object({ path: Type.String() }) },
	{ name: "bash", description: "run a command", parameters: Type.Object({ command: Type.String() }) },
];

describe("openai-responses through the openai SDK", () => {
	it("streams output text from a request that stores nothing on OpenAI's side", async () => {
		server.enqueue({ text: "Responses stream by item.", chunkSize: 5 });
		const { events, message } = await collect(streamModel(model(), context("hi"), { apiKey: TEST_KEY }));

		expect(types(events)).toEqual(["start", "text_start", ...Array(5).fill("text_delta"), "text_end", "done"]);
		expect(message.content).toEqual([{ type: "text", text: "Responses stream by item." }]);
		expect(message.stopReason).toBe("stop");
		const request = server.requests[0]!;
		expect(request.path).toBe("/v1/responses");
		expect(request.body).toEqual({
			model: "gpt-5.6-terra",
			instructions: "You are a test.",
			input: [{ role: "user", content: "hi" }],
			stream: true,
			store: false,
			include: ["reasoning.encrypted_content"],
		});
		expect(JSON.stringify(request.headers)).not.toContain(TEST_KEY);
	});

	it("shows reasoning summaries as thinking, asking for the effort the thinking level names", async () => {
		server.enqueue({ thinking: "Weighing the options.", text: "Done.", thinkingSignature: "enc-secret-1" });
		const { events, message } = await collect(streamModel(model(), context(), { apiKey: TEST_KEY, reasoning: "high" }));

		expect(message.content).toEqual([
			{ type: "thinking", thinking: "Weighing the options.", thinkingSignature: expect.any(String) },
			{ type: "text", text: "Done." },
		]);
		expect(types(events).indexOf("thinking_end")).toBeLessThan(types(events).indexOf("text_start"));
		// The reasoning item is kept whole, its encrypted content included, for the next request.
		const item = JSON.parse((message.content[0] as { thinkingSignature: string }).thinkingSignature);
		expect(item).toMatchObject({ type: "reasoning", id: expect.stringMatching(/^rs_/), encrypted_content: "enc-secret-1" });
		expect(server.requests[0]!.body.reasoning).toEqual({ effort: "high", summary: "auto" });
	});

	it("maps each thinking level to a reasoning effort, and asks nothing of a model that does not reason", async () => {
		for (const level of ["low", "medium", "high"] as const) await collect(streamModel(model(), context(), { apiKey: TEST_KEY, reasoning: level }));
		await collect(streamModel(model(), context(), { apiKey: TEST_KEY, reasoning: "off" }));
		await collect(streamModel(model({ reasoning: false }), context(), { apiKey: TEST_KEY, reasoning: "high" }));

		expect(server.requests.map((request) => request.body.reasoning?.effort)).toEqual(["low", "medium", "high", undefined, undefined]);
		expect(server.requests.at(-1)!.body.include).toBeUndefined();
	});

	it("sends the reasoning back with the next request to the same model, so a tool run keeps its chain of thought", async () => {
		server.enqueue(
			{ thinking: "I should read it first.", thinkingSignature: "enc-chain-1", toolCalls: [{ id: "call_r1", name: "read", arguments: { path: "a.md" } }] },
			{ text: "It says hello." },
		);
		const first = await collect(streamModel(model(), { messages: [user("what is in a.md?")], tools }, { apiKey: TEST_KEY, reasoning: "medium" }));
		const history: Message[] = [user("what is in a.md?"), first.message, result("call_r1", [{ type: "text", text: "hello" }])];
		await collect(streamModel(model(), { messages: history, tools }, { apiKey: TEST_KEY, reasoning: "medium" }));

		expect(server.requests[1]!.body.input).toEqual([
			{ role: "user", content: "what is in a.md?" },
			{ id: expect.stringMatching(/^rs_/), type: "reasoning", summary: [{ type: "summary_text", text: "I should read it first." }], encrypted_content: "enc-chain-1" },
			{ type: "function_call", call_id: "call_r1", name: "read", arguments: '{"path":"a.md"}' },
			{ type: "function_call_output", call_id: "call_r1", output: "hello" },
		]);
	});

	it("drops the reasoning another model produced: its words go as text, its encrypted item not at all", async () => {
		server.enqueue({ thinking: "Private chain.", thinkingSignature: "enc-other-model", text: "Answer one." }, { text: "Answer two." });
		const first = await collect(streamModel(model({ id: "gpt-5.6-sol" }), context("one"), { apiKey: TEST_KEY, reasoning: "low" }));
		await collect(streamModel(model(), { messages: [user("one"), first.message, user("two")] }, { apiKey: TEST_KEY }));

		const input = server.requests[1]!.body.input;
		expect(JSON.stringify(input)).not.toContain("enc-other-model");
		expect(input).toEqual([
			{ role: "user", content: "one" },
			{ role: "assistant", content: "Private chain." },
			{ role: "assistant", content: "Answer one." },
			{ role: "user", content: "two" },
		]);
	});

	it("keeps a reasoning item that came without a summary, and leaves out one that led to no output", async () => {
		const item = (id: string) => ({ id, type: "reasoning", summary: [], encrypted_content: `enc-${id}` });
		server.enqueue({
			rawEvents: [
				{ type: "response.created", response: { id: "resp_1", object: "response", status: "in_progress", output: [] } },
				{ type: "response.output_item.added", output_index: 0, item: { id: "rs_quiet", type: "reasoning", summary: [] } },
				{ type: "response.output_item.done", output_index: 0, item: item("rs_quiet") },
				{ type: "response.output_item.added", output_index: 1, item: { id: "msg_1", type: "message", role: "assistant", content: [] } },
				{ type: "response.content_part.added", output_index: 1, content_index: 0, part: { type: "output_text", text: "" } },
				{ type: "response.output_text.delta", output_index: 1, content_index: 0, delta: "Short." },
				{ type: "response.output_item.done", output_index: 1, item: { id: "msg_1", type: "message", role: "assistant", content: [] } },
				{ type: "response.completed", response: { id: "resp_1", object: "response", status: "completed", output: [] } },
			],
		});
		const { message } = await collect(streamModel(model(), context(), { apiKey: TEST_KEY }));
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "", redacted: true, thinkingSignature: JSON.stringify(item("rs_quiet")) },
			{ type: "text", text: "Short." },
		]);

		const cutOff = assistant([{ type: "thinking", thinking: "", redacted: true, thinkingSignature: JSON.stringify(item("rs_cut")) }], { stopReason: "length" });
		await collect(streamModel(model(), { messages: [user("a"), message, user("b"), cutOff, user("c")] }, { apiKey: TEST_KEY }));
		expect(server.requests[1]!.body.input).toEqual([
			{ role: "user", content: "a" },
			item("rs_quiet"),
			{ role: "assistant", content: "Short." },
			{ role: "user", content: "b" },
			{ role: "user", content: "c" },
		]);
	});

	it("joins the parts of a reasoning summary as paragraphs", async () => {
		const part = (summary_index: number, delta: string) => [
			{ type: "response.reasoning_summary_part.added", output_index: 0, summary_index, part: { type: "summary_text", text: "" } },
			{ type: "response.reasoning_summary_text.delta", output_index: 0, summary_index, delta },
		];
		server.enqueue({
			rawEvents: [
				{ type: "response.output_item.added", output_index: 0, item: { id: "rs_1", type: "reasoning", summary: [] } },
				...part(0, "First idea."),
				...part(1, "Second idea."),
				{ type: "response.output_item.done", output_index: 0, item: { id: "rs_1", type: "reasoning", summary: [] } },
				{ type: "response.completed", response: { status: "completed" } },
			],
		});
		const { message } = await collect(streamModel(model(), context(), { apiKey: TEST_KEY }));
		expect(message.content[0]).toMatchObject({ type: "thinking", thinking: "First idea.\n\nSecond idea." });
	});

	it("assembles parallel function calls whose arguments stream interleaved, by output item", async () => {
		const a = { path: "README.md" };
		const b = { command: "ls -la && echo done" };
		server.enqueue({
			toolCalls: [
				{ id: "call_a", name: "read", arguments: a },
				{ id: "call_b", name: "bash", arguments: b },
			],
			chunkSize: 4,
			interleave: true,
			chunkDelayMs: 2,
		});
		const { events, message, previews } = await collect(streamModel(model(), { messages: [user("go")], tools }, { apiKey: TEST_KEY }));

		expect(previews.length).toBeGreaterThan(6);
		const ends = events.flatMap((event) => (event.type === "toolcall_end" ? [event.toolCall] : []));
		expect(ends.map((call) => [call.id, call.name, call.arguments])).toEqual([
			["call_a", "read", a],
			["call_b", "bash", b],
		]);
		expect(message.stopReason).toBe("toolUse");
		expect(server.requests[0]!.body.tools[0]).toEqual({
			type: "function",
			name: "read",
			description: "read a file",
			parameters: expect.objectContaining({ type: "object" }),
			strict: false,
		});
	});

	it("reads usage with cached input and reasoning tokens, and prices it", async () => {
		server.enqueue({ thinking: "hm", text: "cached", usage: { input: 800, cacheRead: 200, output: 100, reasoning: 60 } });
		const { message } = await collect(streamModel(model(), context(), { apiKey: TEST_KEY, reasoning: "low" }));
		expect(message.usage).toMatchObject({ input: 800, cacheRead: 200, output: 100, reasoning: 60, cacheWrite: 0, totalTokens: 1100 });
		// Reasoning is part of output and priced as output, not on top of it.
		expect(message.usage.cost.total).toBeCloseTo((800 * 3 + 200 * 0.3 + 100 * 15) / 1e6, 12);
	});

	it("ends a response cut at max_output_tokens as length, and one stopped by the content filter as an error", async () => {
		server.enqueue({ text: "trunc", stopReason: "length" }, { text: "bad", stopReason: "content_filter" });
		const cut = await collect(streamModel(model(), context(), { apiKey: TEST_KEY }));
		expect(cut.message.stopReason).toBe("length");
		expect(cut.message.content).toEqual([{ type: "text", text: "trunc" }]);
		const filtered = await collect(streamModel(model(), context(), { apiKey: TEST_KEY }));
		expect(filtered.message.stopReason).toBe("error");
		expect(filtered.message.errorMessage).toMatch(/content filter/);
		expect(filtered.message.content).toEqual([{ type: "text", text: "bad" }]);
	});

	it("reports response.failed and error events with the provider's message, keeping what arrived", async () => {
		server.enqueue(
			{
				rawEvents: [
					{ type: "response.output_item.added", output_index: 0, item: { id: "msg_1", type: "message", role: "assistant", content: [] } },
					{ type: "response.output_text.delta", output_index: 0, content_index: 0, delta: "Half" },
					{ type: "response.failed", response: { status: "failed", error: { code: "invalid_prompt", message: "The prompt was flagged." } } },
				],
			},
			{ rawEvents: [{ type: "error", error: { type: "invalid_request_error", code: "bad_input", message: "Nested form." } }] },
		);
		const failed = await collect(streamModel(model(), context(), { apiKey: TEST_KEY }));
		expect(failed.message.stopReason).toBe("error");
		expect(failed.message.errorMessage).toBe("openai stream error (invalid_prompt): The prompt was flagged.");
		expect(failed.message.content).toEqual([{ type: "text", text: "Half" }]);

		const nested = await collect(streamModel(model(), context(), { apiKey: TEST_KEY }));
		expect(nested.message.errorMessage).toBe("openai stream error (invalid_request_error, bad_input): Nested form.");
	});

	it("ends with an error when the stream stops before the response is complete, and on a call without a name", async () => {
		server.enqueue(
			{ rawEvents: [{ type: "response.output_item.added", output_index: 0, item: { id: "msg_1", type: "message", role: "assistant", content: [] } }] },
			{
				rawEvents: [
					{ type: "response.output_item.added", output_index: 0, item: { type: "function_call", call_id: "call_1", arguments: "{}" } },
					{ type: "response.output_item.done", output_index: 0, item: { type: "function_call", call_id: "call_1", arguments: "{}" } },
					{ type: "response.completed", response: { status: "completed" } },
				],
			},
		);
		const early = await collect(streamModel(model(), context(), { apiKey: TEST_KEY, maxRetries: 0 }));
		expect(early.message.errorMessage).toMatch(/ended before the response was complete/);
		const unnamed = await collect(streamModel(model(), context(), { apiKey: TEST_KEY }));
		expect(unnamed.message.stopReason).toBe("error");
		expect(unnamed.message.errorMessage).toMatch(/Malformed event.*item\.name/);
	});

	it("sends tool results as function_call_output, with their images, and user images as input_image", async () => {
		const history: Message[] = [
			{ role: "user", content: [{ type: "text", text: "look" }, { type: "image", data: "aW1n", mimeType: "image/png" }], timestamp: 0 },
			assistant([{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "a.png" } }]),
			result("call_1", [
				{ type: "text", text: "an image" },
				{ type: "image", data: "aGVsbG8=", mimeType: "image/png" },
			]),
			assistant([{ type: "toolCall", id: "call_2", name: "read", arguments: { path: "gone" } }]),
			result("call_2", [{ type: "text", text: "no such file" }], true),
		];
		await collect(streamModel(model(), { messages: history, tools }, { apiKey: TEST_KEY }));
		expect(server.requests[0]!.body.input).toEqual([
			{
				role: "user",
				content: [
					{ type: "input_text", text: "look" },
					{ type: "input_image", image_url: "data:image/png;base64,aW1n", detail: "auto" },
				],
			},
			{ type: "function_call", call_id: "call_1", name: "read", arguments: '{"path":"a.png"}' },
			{
				type: "function_call_output",
				call_id: "call_1",
				output: [
					{ type: "input_text", text: "an image" },
					{ type: "input_image", image_url: "data:image/png;base64,aGVsbG8=", detail: "auto" },
				],
			},
			{ type: "function_call", call_id: "call_2", name: "read", arguments: '{"path":"gone"}' },
			{ type: "function_call_output", call_id: "call_2", output: "no such file" },
		]);
	});
});
