import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import type { AssistantMessage, Context, ToolResultMessage } from "../../../../src/core/index.js";
import { streamModel } from "../../../../src/core/ai/index.js";
import { collect, context, serverModel, TEST_KEY, types, user } from "./helpers.js";
import { useScriptedServer } from "../../../support/use-scripted-server.js";

const server = useScriptedServer();

const model = () => serverModel(server, "anthropic-messages");

describe("anthropic-messages through @anthropic-ai/sdk", () => {
	it("streams text as start, text_start, deltas, text_end, done", async () => {
		server.enqueue({ text: "Hello from the scripted model!", chunkSize: 5 });
		const { events, message } = await collect(streamModel(model(), context("hi"), { apiKey: TEST_KEY }));

		expect(types(events)[0]).toBe("start");
		expect(types(events).filter((t) => t === "text_delta").length).toBeGreaterThan(3);
		expect(types(events).slice(-2)).toEqual(["text_end", "done"]);
		const deltas = events.flatMap((e) => (e.type === "text_delta" ? [e.delta] : []));
		expect(deltas.join("")).toBe("Hello from the scripted model!");
		expect(message.content).toEqual([{ type: "text", text: "Hello from the scripted model!" }]);
		expect(message.stopReason).toBe("stop");
		expect(message).toMatchObject({ api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-5-5" });

		const [request] = server.requests;
		expect(request!.path).toBe("/v1/messages");
		expect(request!.body).toMatchObject({ model: "claude-sonnet-5-5", stream: true, max_tokens: 8192 });
		// Prompt caching: the system prompt and the end of the last user turn carry breakpoints.
		expect(request!.body.system).toEqual([{ type: "text", text: "You are a test.", cache_control: { type: "ephemeral" } }]);
		expect(request!.body.messages).toEqual([
			{ role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] },
		]);
		expect(JSON.stringify(request!.headers)).not.toContain(TEST_KEY);
	});

	it("keeps thinking with its signature and sends it back verbatim on the next request", async () => {
		server.enqueue({ thinking: "Let me think about it.", thinkingSignature: "sig-abc-123", text: "Answer." }, { text: "second" });
		const first = await collect(streamModel(model(), context("q1"), { apiKey: TEST_KEY, reasoning: "medium" }));

		expect(types(first.events)).toContain("thinking_start");
		expect(types(first.events)).toContain("thinking_end");
		expect(first.message.content[0]).toEqual({
			type: "thinking",
			thinking: "Let me think about it.",
			thinkingSignature: "sig-abc-123",
		});
		expect(first.message.content[1]).toEqual({ type: "text", text: "Answer." });
		// Adaptive thinking with an effort for current models.
		expect(server.requests[0]!.body.thinking).toEqual({ type: "adaptive", display: "summarized" });
		expect(server.requests[0]!.body.output_config).toEqual({ effort: "medium" });

		const next: Context = { messages: [user("q1"), first.message, user("q2")] };
		await collect(streamModel(model(), next, { apiKey: TEST_KEY }));
		const assistantTurn = server.requests[1]!.body.messages[1];
		expect(assistantTurn).toEqual({
			role: "assistant",
			content: [
				{ type: "thinking", thinking: "Let me think about it.", signature: "sig-abc-123" },
				{ type: "text", text: "Answer." },
			],
		});
	});

	it("assembles parallel tool calls whose arguments arrive in pieces, previewing partial JSON", async () => {
		const readArgs = { path: "src/some/long/file-name.ts", offset: 10 };
		const grepArgs = { pattern: "TODO|FIXME", glob: "**/*.ts", ignoreCase: true };
		server.enqueue({
			text: "Looking.",
			toolCalls: [
				{ id: "toolu_read", name: "read", arguments: readArgs },
				{ id: "toolu_grep", name: "grep", arguments: grepArgs },
			],
			chunkSize: 6,
			// Paced, so the pieces arrive in separate reads: events read from one network chunk are all
			// applied before the consumer runs, and the preview then already shows the whole chunk.
			chunkDelayMs: 3,
		});
		const tools = [
			{ name: "read", description: "read a file", parameters: Type.Object({ path: Type.String() }) },
			{ name: "grep", description: "search", parameters: Type.Object({ pattern: Type.String() }) },
		];
		const { events, message, previews } = await collect(
			streamModel(model(), { messages: [user("go")], tools }, { apiKey: TEST_KEY }),
		);

		const deltas = events.filter((e) => e.type === "toolcall_delta");
		expect(deltas.length).toBeGreaterThan(6);
		// While streaming, the arguments are a parsed preview of what has arrived so far.
		expect(previews).toHaveLength(deltas.length);
		expect(previews.some((args) => typeof args.path === "string" && args.path.length > 0 && args.path !== readArgs.path)).toBe(true);
		const ends = events.flatMap((e) => (e.type === "toolcall_end" ? [e.toolCall] : []));
		expect(ends).toEqual([
			{ type: "toolCall", id: "toolu_read", name: "read", arguments: readArgs },
			{ type: "toolCall", id: "toolu_grep", name: "grep", arguments: grepArgs },
		]);
		expect(message.stopReason).toBe("toolUse");
		expect(message.content.map((b) => b.type)).toEqual(["text", "toolCall", "toolCall"]);
		expect(server.requests[0]!.body.tools).toEqual([
			{ name: "read", description: "read a file", input_schema: expect.objectContaining({ type: "object" }) },
			{ name: "grep", description: "search", input_schema: expect.objectContaining({ type: "object" }) },
		]);
	});

	it("sends the results of one tool batch together in a single user message", async () => {
		const assistant: AssistantMessage = {
			role: "assistant",
			content: [
				{ type: "toolCall", id: "toolu_1", name: "read", arguments: { path: "a" } },
				{ type: "toolCall", id: "toolu_2", name: "read", arguments: { path: "b" } },
			],
			api: "anthropic-messages",
			provider: "anthropic",
			model: "claude-sonnet-5-5",
			usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
			stopReason: "toolUse",
			timestamp: 1,
		};
		const result = (id: string, text: string, isError = false): ToolResultMessage => ({
			role: "toolResult",
			toolCallId: id,
			toolName: "read",
			content: [{ type: "text", text }],
			isError,
			timestamp: 2,
		});
		await collect(
			streamModel(model(), { messages: [user("go"), assistant, result("toolu_1", "A"), result("toolu_2", "nope", true)] }, { apiKey: TEST_KEY }),
		);
		const messages = server.requests[0]!.body.messages;
		expect(messages).toHaveLength(3);
		expect(messages[2]).toEqual({
			role: "user",
			content: [
				{ type: "tool_result", tool_use_id: "toolu_1", is_error: false, content: [{ type: "text", text: "A" }] },
				{
					type: "tool_result",
					tool_use_id: "toolu_2",
					is_error: true,
					content: [{ type: "text", text: "nope" }],
					cache_control: { type: "ephemeral" },
				},
			],
		});
	});

	it("reports usage with cache reads and writes, and its cost from the model's prices", async () => {
		server.enqueue({ text: "priced", usage: { input: 1000, output: 500, cacheRead: 2000, cacheWrite: 400 } });
		const { message } = await collect(streamModel(model(), context(), { apiKey: TEST_KEY }));
		expect(message.usage).toMatchObject({ input: 1000, output: 500, cacheRead: 2000, cacheWrite: 400, totalTokens: 3900 });
		// $3 / $15 / $0.30 / $3.75 per million tokens.
		expect(message.usage.cost.input).toBeCloseTo(0.003, 10);
		expect(message.usage.cost.output).toBeCloseTo(0.0075, 10);
		expect(message.usage.cost.cacheRead).toBeCloseTo(0.0006, 10);
		expect(message.usage.cost.cacheWrite).toBeCloseTo(0.0015, 10);
		expect(message.usage.cost.total).toBeCloseTo(0.0126, 10);
	});

	it("maps max_tokens to length and end_turn to stop", async () => {
		server.enqueue({ text: "cut", stopReason: "length" }, { text: "fine", stopReason: "stop" });
		const cut = await collect(streamModel(model(), context(), { apiKey: TEST_KEY }));
		const fine = await collect(streamModel(model(), context(), { apiKey: TEST_KEY }));
		expect(cut.message.stopReason).toBe("length");
		expect(cut.events.at(-1)).toMatchObject({ type: "done", reason: "length" });
		expect(fine.message.stopReason).toBe("stop");
	});

	it("asks budget-thinking models for a token budget below max_tokens", async () => {
		const haiku = serverModel(server, "anthropic-messages", { id: "claude-haiku-4-5", maxTokens: 64_000 });
		await collect(streamModel(haiku, context(), { apiKey: TEST_KEY, reasoning: "high", maxTokens: 4000 }));
		const body = server.requests[0]!.body;
		expect(body.thinking.type).toBe("enabled");
		expect(body.thinking.budget_tokens).toBeGreaterThanOrEqual(1024);
		expect(body.thinking.budget_tokens).toBeLessThan(body.max_tokens);
	});
});
