import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AssistantMessage } from "../../../../src/core/index.js";
import { emptyUsage, isContextOverflow, streamModel } from "../../../../src/core/ai/index.js";
import { type ScriptedModelServer, startScriptedModelServer } from "../../../support/scripted-model-server.mjs";
import { collect, context, FAST_RETRY, PROTOCOLS, serverModel } from "./helpers.js";

let server: ScriptedModelServer;
beforeAll(async () => {
	// Answers like a real server with a small window: too-long requests get the provider's overflow error.
	server = await startScriptedModelServer({
		respond: (body) => (JSON.stringify(body).length > 2000 ? { contextOverflow: true, contextWindow: 500 } : undefined),
	});
});
afterAll(() => server.close());

function failed(errorMessage: string): AssistantMessage {
	return {
		role: "assistant",
		content: [],
		api: "openai-completions",
		provider: "local",
		model: "m",
		usage: emptyUsage(),
		stopReason: "error",
		errorMessage,
		timestamp: 0,
	};
}

describe("isContextOverflow", () => {
	it.each(PROTOCOLS)("recognises the %s overflow error coming back through the SDK", async (api) => {
		const small = await collect(streamModel(serverModel(server, api), context("short"), FAST_RETRY));
		expect(isContextOverflow(small.message)).toBe(false);

		const big = await collect(streamModel(serverModel(server, api), context("x".repeat(5000)), FAST_RETRY));
		expect(big.message.stopReason).toBe("error");
		expect(isContextOverflow(big.message)).toBe(true);
	});

	it.each([
		"anthropic API error 400 (invalid_request_error): prompt is too long: 210000 tokens > 200000 maximum",
		"openai API error 400 (invalid_request_error, context_length_exceeded): Input too long",
		"openai API error 400: This model's maximum context length is 32768 tokens. However, you requested 40000 tokens",
		"llama API error 400 (exceed_context_size_error): request (9000 tokens) exceeds the available context size (8192 tokens), try increasing it",
		"ollama API error 500: prompt too long; exceeded max context length by 120 tokens",
		"ollama API error 400: input length exceeds the context length",
		"lmstudio API error 400: Trying to keep the first 9000 tokens when context the overflows. However, the model is loaded with context length of only 8192 tokens",
		"anthropic API error 413 (request_too_large): Request exceeds the maximum allowed number of bytes.",
		"model_context_window_exceeded: the conversation exceeds the model's context window (prompt is too long).",
		"openai stream error (context_length_exceeded): Your input exceeds the context window of this model. Please adjust your input and try again.",
		"google API error 400 (INVALID_ARGUMENT): The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
	])("recognises %s", (text) => {
		expect(isContextOverflow(failed(text))).toBe(true);
	});

	it.each([
		"anthropic API error 429 (rate_limit_error): This request would exceed the rate limit of 40000 input tokens per minute",
		"openai API error 500 (server_error): The server had an error",
		"Could not connect to local at http://127.0.0.1:1: connect ECONNREFUSED",
	])("does not mistake %s for an overflow", (text) => {
		expect(isContextOverflow(failed(text))).toBe(false);
	});

	it("with a context window, flags a reply whose input silently exceeded it", () => {
		const ok: AssistantMessage = { ...failed(""), stopReason: "stop", errorMessage: undefined };
		ok.usage = { ...emptyUsage(), input: 7000, cacheRead: 2000 };
		expect(isContextOverflow(ok, 8192)).toBe(true);
		expect(isContextOverflow(ok, 10_000)).toBe(false);
		expect(isContextOverflow(ok)).toBe(false);
	});
});
