import { Type } from "@sinclair/typebox";
import { describe, expect, it, vi } from "vitest";
import type { AssistantMessage, Message, RetryInfo } from "../../../../src/core/index.js";
import { streamModel } from "../../../../src/core/ai/index.js";
import { useScriptedServer } from "../../../support/use-scripted-server.js";
import { assistantFrom, collect, context, FAST_RETRY, serverModel, TEST_KEY, toolResult as result, types, user } from "./helpers.js";

const server = useScriptedServer();

const model = (overrides = {}) => serverModel(server, "google-generative-ai", overrides);
const assistant = (content: AssistantMessage["content"], extra: Partial<AssistantMessage> = {}) => assistantFrom(model(), content, extra);
const tools = [
	{ name: "read", description: "read a file", parameters: Type.Object({ path: Type.String() }) },
	{ name: "bash", description: "run a command", parameters: Type.Object({ command: Type.String() }) },
];

describe("google-generative-ai (Gemini streamGenerateContent)", () => {
	it("streams text over alt=sse, the key in its header and nowhere else", async () => {
		server.enqueue({ text: "Gemini streams chunks.", chunkSize: 6 });
		const { events, message } = await collect(streamModel(model(), context("hi"), { apiKey: TEST_KEY }));

		expect(types(events)).toEqual(["start", "text_start", ...Array(4).fill("text_delta"), "text_end", "done"]);
		expect(message.content).toEqual([{ type: "text", text: "Gemini streams chunks." }]);
		expect(message.stopReason).toBe("stop");
		const request = server.requests[0]!;
		expect(request.url).toBe("/v1beta/models/gemini-3.1-pro:streamGenerateContent?alt=sse");
		expect(request.headers["x-goog-api-key"]).toBe("[redacted]");
		expect(request.url).not.toContain(TEST_KEY);
		expect(request.body).toEqual({
			contents: [{ role: "user", parts: [{ text: "hi" }] }],
			systemInstruction: { parts: [{ text: "You are a test." }] },
		});
	});

	it("reads the key from GEMINI_API_KEY, else GOOGLE_API_KEY", async () => {
		vi.stubEnv("GEMINI_API_KEY", "");
		vi.stubEnv("GOOGLE_API_KEY", "from-google-variable");
		try {
			const { message } = await collect(streamModel(model(), context()));
			expect(message.stopReason).toBe("stop");
			expect(server.requests).toHaveLength(1);
		} finally {
			vi.unstubAllEnvs();
		}
	});

	it("shows thought summaries as thinking and asks for a thinking budget by level", async () => {
		server.enqueue({ thinking: "Considering the files.", text: "Done.", chunkSize: 10 });
		const { events, message } = await collect(streamModel(model(), context(), { apiKey: TEST_KEY, reasoning: "medium" }));

		expect(message.content).toEqual([
			{ type: "thinking", thinking: "Considering the files." },
			{ type: "text", text: "Done.", signature: expect.stringMatching(/^sig-/) },
		]);
		expect(types(events).indexOf("thinking_end")).toBeLessThan(types(events).indexOf("text_start"));
		expect(server.requests[0]!.body.generationConfig).toEqual({ thinkingConfig: { thinkingBudget: 8192, includeThoughts: true } });

		for (const level of ["low", "high", "off"] as const) await collect(streamModel(model(), context(), { apiKey: TEST_KEY, reasoning: level }));
		await collect(streamModel(model({ reasoning: false }), context(), { apiKey: TEST_KEY, reasoning: "high" }));
		expect(server.requests.slice(1).map((request) => request.body.generationConfig?.thinkingConfig?.thinkingBudget)).toEqual([2048, 24576, undefined, undefined]);
	});

	it("gives function calls ids of their own when Gemini names none, and sends their signature back", async () => {
		server.enqueue(
			{
				thinking: "Two things to check.",
				thinkingSignature: "sig-turn-1",
				toolCalls: [
					{ name: "read", arguments: { path: "a.md" } },
					{ name: "bash", arguments: { command: "ls" } },
				],
			},
			{ text: "Both checked." },
		);
		const first = await collect(streamModel(model(), { messages: [user("check")], tools }, { apiKey: TEST_KEY, reasoning: "low" }));
		const calls = first.message.content.flatMap((block) => (block.type === "toolCall" ? [block] : []));
		expect(calls.map((call) => [call.name, call.arguments])).toEqual([
			["read", { path: "a.md" }],
			["bash", { command: "ls" }],
		]);
		expect(calls[0]!.id).toMatch(/^call_[0-9a-f]{24}$/);
		expect(calls[1]!.id).not.toBe(calls[0]!.id);
		expect(calls[0]!.signature).toBe("sig-turn-1");
		expect(first.message.stopReason).toBe("toolUse");

		const history: Message[] = [
			user("check"),
			first.message,
			result(calls[0]!.id, [{ type: "text", text: "hello" }]),
			{ ...result(calls[1]!.id, [{ type: "text", text: "a.md" }]), toolName: "bash" },
		];
		await collect(streamModel(model(), { messages: history, tools }, { apiKey: TEST_KEY, reasoning: "low" }));
		expect(server.requests[1]!.body.contents.slice(1)).toEqual([
			{
				role: "model",
				parts: [
					{ functionCall: { id: calls[0]!.id, name: "read", args: { path: "a.md" } }, thoughtSignature: "sig-turn-1" },
					{ functionCall: { id: calls[1]!.id, name: "bash", args: { command: "ls" } } },
				],
			},
			{
				role: "user",
				parts: [
					{ functionResponse: { id: calls[0]!.id, name: "read", response: { output: "hello" } } },
					{ functionResponse: { id: calls[1]!.id, name: "bash", response: { output: "a.md" } } },
				],
			},
		]);
		expect(server.requests[0]!.body.tools).toEqual([
			{ functionDeclarations: [expect.objectContaining({ name: "read", parametersJsonSchema: expect.objectContaining({ type: "object" }) }), expect.anything()] },
		]);
	});

	it("gives Gemini 3 a stand-in signature for calls another model made, and none to Gemini 2.5", async () => {
		const foreign = assistant([{ type: "text", text: "Reading." }, { type: "toolCall", id: "toolu_1", name: "read", arguments: { path: "x" } }], {
			api: "anthropic-messages",
			provider: "anthropic",
			model: "claude-sonnet-5-5",
		});
		const messages = [user("go"), foreign, result("toolu_1", [{ type: "text", text: "x" }])];
		await collect(streamModel(model(), { messages }, { apiKey: TEST_KEY }));
		await collect(streamModel(model({ id: "gemini-2.5-pro" }), { messages }, { apiKey: TEST_KEY }));
		expect(server.requests[0]!.body.contents[1].parts[1]).toEqual({
			functionCall: { id: "toolu_1", name: "read", args: { path: "x" } },
			thoughtSignature: "skip_thought_signature_validator",
		});
		expect(server.requests[1]!.body.contents[1].parts[1]).toEqual({ functionCall: { id: "toolu_1", name: "read", args: { path: "x" } } });
	});

	it("reads usage with cached and thinking tokens, thinking billed as output", async () => {
		server.enqueue({ thinking: "hm", text: "cached", usage: { input: 800, cacheRead: 200, output: 100, reasoning: 40 } });
		const { message } = await collect(streamModel(model(), context(), { apiKey: TEST_KEY, reasoning: "low" }));
		expect(message.usage).toMatchObject({ input: 800, cacheRead: 200, output: 100, reasoning: 40, cacheWrite: 0, totalTokens: 1100 });
		expect(message.usage.cost.total).toBeCloseTo((800 * 3 + 200 * 0.3 + 100 * 15) / 1e6, 12);
	});

	it("ends at MAX_TOKENS as length; a safety stop or a blocked prompt as an error saying so", async () => {
		server.enqueue(
			{ text: "trunc", stopReason: "length" },
			{ text: "unsafe", stopReason: "SAFETY" },
			{ rawEvents: [{ promptFeedback: { blockReason: "PROHIBITED_CONTENT" }, usageMetadata: { promptTokenCount: 12 } }] },
		);
		const cut = await collect(streamModel(model(), context(), { apiKey: TEST_KEY }));
		expect(cut.message.stopReason).toBe("length");
		const unsafe = await collect(streamModel(model(), context(), { apiKey: TEST_KEY }));
		expect(unsafe.message.stopReason).toBe("error");
		expect(unsafe.message.errorMessage).toBe("Gemini's safety filters stopped the response (finishReason: SAFETY).");
		expect(unsafe.message.content).toEqual([{ type: "text", text: "unsafe" }]);
		const blocked = await collect(streamModel(model(), context(), { apiKey: TEST_KEY }));
		expect(blocked.message.errorMessage).toBe("Gemini blocked the prompt (blockReason: PROHIBITED_CONTENT).");
		expect(blocked.message.usage.input).toBe(12);
	});

	it("names the API's status in an HTTP error, and waits as long as its RetryInfo asks", async () => {
		server.enqueue(
			{
				status: 429,
				errorBody: {
					error: {
						code: 429,
						message: "Resource has been exhausted (e.g. check quota).",
						status: "RESOURCE_EXHAUSTED",
						details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "0.2s" }],
					},
				},
			},
			{ text: "after the wait" },
			{ status: 403, errorMessage: "Method doesn't allow unregistered callers." },
		);
		const retries: RetryInfo[] = [];
		const { message } = await collect(streamModel(model(), context(), { ...FAST_RETRY, onRetry: (info) => retries.push(info) }));
		expect(message.content).toEqual([{ type: "text", text: "after the wait" }]);
		expect(retries.map((retry) => [retry.delayMs, retry.reason])).toEqual([[200, "rate limited (429)"]]);

		const denied = await collect(streamModel(model(), context(), FAST_RETRY));
		expect(denied.message.errorMessage).toBe(
			"google API error 403 (PERMISSION_DENIED): Method doesn't allow unregistered callers. (check the API key for this provider)",
		);
	});

	it("ends with a clear error on a function call without a name or with arguments that are not an object, running nothing", async () => {
		const chunk = (functionCall: unknown) => ({ candidates: [{ content: { role: "model", parts: [{ functionCall }] }, finishReason: "STOP" }] });
		server.enqueue({ rawEvents: [chunk({ args: { path: "x" } })] }, { rawEvents: [chunk({ name: "read", args: ["x"] })] });
		const unnamed = await collect(streamModel(model(), context(), FAST_RETRY));
		expect(unnamed.message.errorMessage).toMatch(/Malformed event.*functionCall\.name is missing, expected a function name/);
		expect(unnamed.message.content).toEqual([]);
		const listed = await collect(streamModel(model(), context(), FAST_RETRY));
		expect(listed.message.errorMessage).toMatch(/Malformed event.*functionCall\.args is a list, expected an object/);
		expect(listed.message.content).toEqual([]);
	});

	it("sends error results as errors, images after the batch's responses, and user images inline", async () => {
		const history: Message[] = [
			{ role: "user", content: [{ type: "text", text: "look" }, { type: "image", data: "aW1n", mimeType: "image/png" }], timestamp: 0 },
			assistant([
				{ type: "toolCall", id: "c1", name: "read", arguments: { path: "a.png" } },
				{ type: "toolCall", id: "c2", name: "read", arguments: { path: "gone" } },
			]),
			result("c1", [{ type: "image", data: "aGVsbG8=", mimeType: "image/png" }]),
			result("c2", [{ type: "text", text: "no such file" }], true),
		];
		await collect(streamModel(model({ id: "gemini-2.5-flash" }), { messages: history, tools }, { apiKey: TEST_KEY }));
		const contents = server.requests[0]!.body.contents;
		expect(contents[0]).toEqual({ role: "user", parts: [{ text: "look" }, { inlineData: { mimeType: "image/png", data: "aW1n" } }] });
		expect(contents[2]).toEqual({
			role: "user",
			parts: [
				{ functionResponse: { id: "c1", name: "read", response: { output: "(images follow)" } } },
				{ functionResponse: { id: "c2", name: "read", response: { error: "no such file" } } },
				{ inlineData: { mimeType: "image/png", data: "aGVsbG8=" } },
			],
		});
	});
});
