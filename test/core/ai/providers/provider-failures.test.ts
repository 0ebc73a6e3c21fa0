import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, vi } from "vitest";
import type { RetryInfo } from "../../../../src/core/index.js";
import { streamModel } from "../../../../src/core/ai/index.js";
import { type ScriptedTurn, startScriptedModelServer } from "../../../support/scripted-model-server.mjs";
import { collect, context, FAST_RETRY, PROTOCOLS, serverModel, TEST_KEY, types, WIRES } from "./helpers.js";
import { useScriptedServer } from "../../../support/use-scripted-server.js";

const server = useScriptedServer();

describe.each(PROTOCOLS)("%s failures", (api) => {
	const model = () => serverModel(server, api);
	const overloaded = WIRES[api].overloaded;
	// Index of the first text delta among the SSE events the server writes.
	const firstDelta = WIRES[api].firstDelta;
	// Events that can be written before any content starts (none for Gemini, whose every chunk carries some).
	const beforeContent = Math.min(1, firstDelta);

	it("an invalid base URL names the URL and where it came from (the stream's baseUrl option, no command-line flag), without retrying", async () => {
		const { message } = await collect(streamModel({ ...model(), baseUrl: "foo" }, context(), FAST_RETRY));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/Invalid base URL for .*"foo" \(not a URL; set by the baseUrl option, the \*_BASE_URL variable or models\.json\)/);
		expect(message.errorMessage).not.toContain("--base-url");
		expect(server.requests).toHaveLength(0);
	});

	it.each(["ftp://x/v1", "unix:///tmp/socket", "localhost:11434"])(
		"does not retry a base URL that can never work (%s): it names the URL and the schemes that do",
		async (baseUrl) => {
			const retries: RetryInfo[] = [];
			const { message } = await collect(
				streamModel({ ...model(), baseUrl }, context(), { ...FAST_RETRY, onRetry: (i) => retries.push(i) }),
			);
			expect(message.stopReason).toBe("error");
			expect(message.errorMessage).toContain(`Invalid base URL for ${model().provider}: "${baseUrl}"`);
			expect(message.errorMessage).toMatch(/http:\/\/ or https:\/\//);
			expect(retries).toEqual([]);
		},
	);

	it("says the server answered in another wire format, without retrying, when it streams another API's events", async () => {
		const others = { "anthropic-messages": "openai-responses", "openai-completions": "anthropic", "openai-responses": "openai", "google-generative-ai": "openai" } as const;
		server.enqueue({ speak: others[api], text: "hello" }, { text: "never" });
		const retries: RetryInfo[] = [];
		const { message } = await collect(streamModel(model(), context(), { ...FAST_RETRY, onRetry: (i) => retries.push(i) }));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(new RegExp(`answered in another format: .* events, while this model's API is .* \\("${api}"\\)`));
		expect(message.content).toEqual([]);
		expect(retries).toEqual([]);
		expect(server.requests).toHaveLength(1);
	});

	it.each([401, 403, 404, 413, 422])("does not retry an HTTP %i, which the same request will always get", async (status) => {
		server.enqueue({ status }, { text: "never" });
		const retries: RetryInfo[] = [];
		const { message } = await collect(streamModel(model(), context(), { ...FAST_RETRY, onRetry: (i) => retries.push(i) }));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain(String(status));
		expect(retries).toEqual([]);
		expect(server.requests).toHaveLength(1);
	});

	it(`retries 429, 500 and ${overloaded} before any content, reporting each retry, then succeeds`, async () => {
		server.enqueue({ status: 429 }, { status: 500 }, { status: overloaded }, { text: "finally" });
		const retries: RetryInfo[] = [];
		const { events, message } = await collect(
			streamModel(model(), context(), { ...FAST_RETRY, onRetry: (info) => retries.push(info) }),
		);

		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([{ type: "text", text: "finally" }]);
		expect(server.requests).toHaveLength(4);
		expect(retries.map((r) => [r.attempt, r.maxRetries])).toEqual([
			[1, 3],
			[2, 3],
			[3, 3],
		]);
		expect(retries[0]!.reason).toMatch(/429/);
		expect(retries[1]!.reason).toMatch(/500/);
		expect(retries[2]!.reason).toMatch(new RegExp(String(overloaded)));
		// Exponential backoff from the (tiny) base delay.
		expect(retries[1]!.delayMs).toBeGreaterThan(retries[0]!.delayMs);
		expect(types(events).filter((t) => t === "start")).toHaveLength(1);
	});

	it("tells onRequest as each attempt's request goes, before its answer: once per attempt, retries too", async () => {
		let release = () => {};
		const held = new Promise<void>((resolve) => (release = resolve));
		server.setResponder(async (_body, index) => {
			if (index === 1) await held;
			return undefined;
		});
		server.enqueue({ status: 500 }, { text: "answered" });
		let told = 0;
		const done = collect(streamModel(model(), context(), { ...FAST_RETRY, onRequest: () => told++ }));
		await expect.poll(() => server.requests.length, { timeout: 15_000 }).toBe(2);
		await expect.poll(() => told, { timeout: 15_000 }).toBe(2);
		release();
		const { message } = await done;
		expect(message.content).toEqual([{ type: "text", text: "answered" }]);
		expect(told).toBe(2);
	});

	it("does not tell onRequest of attempts that reached no server", async () => {
		const closed = http.createServer();
		await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
		const port = (closed.address() as AddressInfo).port;
		await new Promise<void>((resolve) => closed.close(() => resolve()));
		const baseUrl = model().baseUrl.replace(`:${server.port}`, `:${port}`);
		let told = 0;
		const { message } = await collect(streamModel({ ...model(), baseUrl }, context(), { ...FAST_RETRY, maxRetries: 1, onRequest: () => told++ }));
		expect(message.stopReason).toBe("error");
		expect(told).toBe(0);
	});

	it("honours retry-after", async () => {
		server.enqueue({ status: 429, retryAfter: 0.3 }, { text: "after the wait" });
		const retries: RetryInfo[] = [];
		const { message } = await collect(streamModel(model(), context(), { ...FAST_RETRY, onRetry: (i) => retries.push(i) }));
		expect(message.content).toEqual([{ type: "text", text: "after the wait" }]);
		expect(retries).toHaveLength(1);
		expect(retries[0]!.delayMs).toBe(300);
		const [first, second] = server.requests;
		expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(250);
	});

	it("gives up after maxRetries with the last error", async () => {
		server.enqueue({ status: 500, errorMessage: "boom one" }, { status: 500, errorMessage: "boom two" }, { text: "never" });
		const { message } = await collect(streamModel(model(), context(), { ...FAST_RETRY, maxRetries: 1 }));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/500/);
		expect(message.errorMessage).toMatch(/boom two/);
		expect(message.errorMessage).toMatch(/gave up after 1 retry/);
		expect(server.requests).toHaveLength(2);
	});

	it("does not retry a client error such as 400", async () => {
		server.enqueue({ status: 400, errorMessage: "messages: bad shape" }, { text: "never" });
		const retries: RetryInfo[] = [];
		const { message } = await collect(streamModel(model(), context(), { ...FAST_RETRY, onRetry: (i) => retries.push(i) }));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/400.*messages: bad shape/);
		expect(retries).toEqual([]);
		expect(server.requests).toHaveLength(1);
	});

	it("retries a connection cut before any content arrived", async () => {
		server.enqueue({ text: "lost", cutAfterChunks: beforeContent }, { text: "recovered" });
		const retries: RetryInfo[] = [];
		const { message } = await collect(streamModel(model(), context(), { ...FAST_RETRY, onRetry: (i) => retries.push(i) }));
		expect(message.content).toEqual([{ type: "text", text: "recovered" }]);
		expect(retries).toHaveLength(1);
		expect(retries[0]!.reason).toMatch(/connection/);
	});

	it("ends with an error that keeps the partial content when the connection drops mid-stream", async () => {
		server.enqueue({ text: "partial text that never finishes", chunkSize: 4, cutAfterChunks: firstDelta + 2 }, { text: "not retried" });
		const { events, message } = await collect(streamModel(model(), context(), FAST_RETRY));
		expect(events.at(-1)).toMatchObject({ type: "error", reason: "error" });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/lost mid-response|ended before/);
		expect(message.content).toEqual([{ type: "text", text: "partial " }]);
		expect(server.requests).toHaveLength(1);
	});

	it("ends with an error on a malformed event, keeping what arrived before it", async () => {
		server.enqueue({ text: "good start, then garbage", chunkSize: 5, malformed: true, cutAfterChunks: firstDelta + 1 });
		const { message } = await collect(streamModel(model(), context(), FAST_RETRY));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/Malformed event/);
		expect(message.content).toEqual([{ type: "text", text: "good " }]);
		expect(server.requests).toHaveLength(1);
	});

	it("stops reading an event larger than 16 MB (a line that never ends) with a clear error, without retrying", async () => {
		server.enqueue({ text: "never shown", longLine: 40_000_000 }, { text: "not retried" });
		const { message } = await collect(streamModel(model(), context(), FAST_RETRY));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/event larger than 16 MB/);
		expect(server.requests).toHaveLength(1);
	});

	it("shows the message of a JSON error sent with HTTP 200 instead of a stream, and does not retry a lasting one", async () => {
		const quota = "You exceeded your current quota, please check your plan and billing details.";
		server.enqueue({ rawBody: { error: { message: quota, type: "insufficient_quota" } } }, { text: "never" });
		const retries: RetryInfo[] = [];
		const { message } = await collect(streamModel(model(), context(), { ...FAST_RETRY, onRetry: (i) => retries.push(i) }));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("instead of an event stream");
		expect(message.errorMessage).toContain(quota);
		expect(message.errorMessage).toContain("insufficient_quota");
		expect(retries).toEqual([]);
		expect(server.requests).toHaveLength(1);
	});

	it("retries a JSON error sent with HTTP 200 when it says the server is overloaded, even labelled as an event stream", async () => {
		server.enqueue(
			{ rawBody: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }, contentType: "text/event-stream" },
			{ text: "second try" },
		);
		const retries: RetryInfo[] = [];
		const { message } = await collect(streamModel(model(), context(), { ...FAST_RETRY, onRetry: (i) => retries.push(i) }));
		expect(message.content).toEqual([{ type: "text", text: "second try" }]);
		expect(retries).toHaveLength(1);
		expect(retries[0]!.reason).toMatch(/overloaded/);
	});

	it("shows the text of an HTML page sent instead of a stream, shortened and without escape sequences", async () => {
		const page = `<!DOCTYPE html><html><head><title>Gateway \x1b]0;pwned\x07Portal</title><style>body { color: red }</style></head><body><h1>Sign in to continue</h1><p>${"more words ".repeat(500)}</p><script>alert(1)</script></body></html>`;
		server.enqueue({ rawBody: page, contentType: "text/html; charset=utf-8" }, { text: "never" });
		const { message } = await collect(streamModel(model(), context(), FAST_RETRY));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/HTML page instead of an event stream.*Gateway .*Portal Sign in to continue more words/);
		expect(message.errorMessage).not.toMatch(/[\x00-\x1f\x7f]|<h1>|color: red|alert/);
		expect(message.errorMessage!.length).toBeLessThan(600);
		expect(server.requests).toHaveLength(1);
	});

	it("says so when the server sends a complete, non-streamed answer", async () => {
		const completions: Record<typeof api, unknown> = {
			"anthropic-messages": { id: "msg_1", type: "message", role: "assistant", content: [{ type: "text", text: "Hello" }], stop_reason: "end_turn" },
			"openai-completions": {
				id: "chatcmpl-1",
				object: "chat.completion",
				choices: [{ index: 0, message: { role: "assistant", content: "Hello" }, finish_reason: "stop" }],
			},
			"openai-responses": {
				id: "resp_1",
				object: "response",
				status: "completed",
				output: [{ id: "msg_1", type: "message", role: "assistant", content: [{ type: "output_text", text: "Hello", annotations: [] }] }],
			},
			// Without alt=sse, Gemini answers with a list of chunks.
			"google-generative-ai": [{ candidates: [{ content: { role: "model", parts: [{ text: "Hello" }] }, finishReason: "STOP" }] }],
		};
		const completion = completions[api];
		server.enqueue({ rawBody: completion }, { text: "never" });
		const { message } = await collect(streamModel(model(), context(), FAST_RETRY));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/complete, non-streamed response instead of an event stream/);
		expect(server.requests).toHaveLength(1);
	});

	it("never shows the API key in a server's non-stream answer", async () => {
		server.enqueue({ rawBody: { error: { message: `invalid key ${TEST_KEY}` } } });
		const { message } = await collect(streamModel(model(), context(), FAST_RETRY));
		expect(message.errorMessage).toContain("invalid key ***");
		expect(message.errorMessage).not.toContain(TEST_KEY);
	});

	it("never writes to the console (the interactive screen owns it), even for malformed events or deprecated models", async () => {
		const spies = (["log", "info", "warn", "error", "debug"] as const).map((name) => vi.spyOn(console, name).mockImplementation(() => {}));
		try {
			server.enqueue({ text: "abc", malformed: true, cutAfterChunks: firstDelta + 1 }, { text: "fine" });
			const deprecatedIds = { "anthropic-messages": "claude-sonnet-4-5", "openai-completions": "gpt-4", "openai-responses": "gpt-4", "google-generative-ai": "gemini-1.5-pro" };
			const deprecated = serverModel(server, api, { id: deprecatedIds[api] });
			await collect(streamModel(deprecated, context(), FAST_RETRY));
			await collect(streamModel(deprecated, context(), { ...FAST_RETRY, reasoning: "low" }));
			for (const spy of spies) expect(spy).not.toHaveBeenCalled();
		} finally {
			for (const spy of spies) spy.mockRestore();
		}
	});

	it("retries a provider error event that arrives before any content, not one after", async () => {
		server.enqueue(
			{ text: "x", streamError: { message: "Overloaded", type: api === "anthropic-messages" ? "overloaded_error" : "server_error", afterChunks: beforeContent } },
			{ text: "second try" },
		);
		const retries: RetryInfo[] = [];
		const first = await collect(streamModel(model(), context(), { ...FAST_RETRY, onRetry: (i) => retries.push(i) }));
		expect(first.message.content).toEqual([{ type: "text", text: "second try" }]);
		expect(retries).toHaveLength(1);

		server.enqueue({ text: "some words", chunkSize: 4, streamError: { message: "Overloaded", afterChunks: firstDelta + 1 } });
		const second = await collect(streamModel(model(), context(), FAST_RETRY));
		expect(second.message.stopReason).toBe("error");
		expect(second.message.errorMessage).toMatch(/Overloaded/);
		expect(second.message.content).toEqual([{ type: "text", text: "some" }]);
	});

	it("counts the tokens every attempt reported when a request fails in the end, retried attempts included", async () => {
		// Each attempt reports 1000 input tokens, then the server says it is overloaded.
		const usageThenOverloadedBy: Record<typeof api, ScriptedTurn> = {
			"anthropic-messages": { text: "x", usage: { input: 1000, output: 0 }, streamError: { message: "Overloaded", type: "overloaded_error", afterChunks: 1 } },
			"openai-completions": {
				rawEvents: [
					{ object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 1000, completion_tokens: 0 } },
					{ error: { message: "Overloaded", type: "server_error" } },
				],
			},
			// The failed response still says what it used.
			"openai-responses": {
				rawEvents: [
					{ type: "response.created", sequence_number: 0, response: { id: "resp_1", object: "response", status: "in_progress", output: [] } },
					{
						type: "response.failed",
						sequence_number: 1,
						response: {
							id: "resp_1",
							object: "response",
							status: "failed",
							output: [],
							error: { code: "server_error", message: "Overloaded" },
							usage: { input_tokens: 1000, output_tokens: 0, input_tokens_details: { cached_tokens: 0 } },
						},
					},
				],
			},
			"google-generative-ai": {
				rawEvents: [
					{ candidates: [], usageMetadata: { promptTokenCount: 1000, totalTokenCount: 1000 } },
					{ error: { code: 503, message: "Overloaded", status: "UNAVAILABLE" } },
				],
			},
		};
		const usageThenOverloaded = usageThenOverloadedBy[api];
		server.enqueue(usageThenOverloaded, usageThenOverloaded, usageThenOverloaded);
		const { message } = await collect(streamModel(model(), context(), { ...FAST_RETRY, maxRetries: 2 }));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/gave up after 2 retries/);
		expect(message.usage.input).toBe(3000);
		expect(message.usage.cost.input).toBeCloseTo((3000 * 3) / 1e6);

		// A retry that succeeds carries its own usage: the answer's context size stays what the model saw.
		server.enqueue(usageThenOverloaded, { text: "fine", usage: { input: 1000, output: 5 } });
		const recovered = await collect(streamModel(model(), context(), FAST_RETRY));
		expect(recovered.message.stopReason).toBe("stop");
		expect(recovered.message.usage.input).toBe(1000);
	});

	it("aborts a slow stream at once, keeping the partial message with stopReason aborted", async () => {
		server.enqueue({ text: "a very slow answer indeed", chunkSize: 3, chunkDelayMs: 150 });
		const controller = new AbortController();
		const stream = streamModel(model(), context(), { ...FAST_RETRY, signal: controller.signal });
		const started = Date.now();
		let abortedAt = 0;
		for await (const event of stream) {
			if (event.type === "text_delta" && !controller.signal.aborted) {
				abortedAt = Date.now();
				controller.abort();
			}
		}
		const message = await stream.result();
		expect(message.stopReason).toBe("aborted");
		expect(message.content[0]).toMatchObject({ type: "text" });
		expect((message.content[0] as { text: string }).text.length).toBeGreaterThan(0);
		expect(Date.now() - abortedAt).toBeLessThan(1000);
		expect(Date.now() - started).toBeLessThan(3000);
	});

	it("aborts while waiting for the server to answer, and while waiting to retry", async () => {
		server.enqueue({ hangMs: 5000, text: "too late" });
		const hanging = new AbortController();
		setTimeout(() => hanging.abort(), 100);
		const started = Date.now();
		const first = await collect(streamModel(model(), context(), { ...FAST_RETRY, signal: hanging.signal }));
		expect(first.message.stopReason).toBe("aborted");
		expect(Date.now() - started).toBeLessThan(2000);

		// A server of its own: on a busy machine the aborted request may reach the first one only now, and must not
		// take the turns queued here.
		const retrying = await startScriptedModelServer();
		try {
			retrying.enqueue({ status: 429, retryAfter: 30 }, { text: "never" });
			const waiting = new AbortController();
			const t0 = Date.now();
			const second = await collect(
				streamModel(serverModel(retrying, api), context(), { ...FAST_RETRY, signal: waiting.signal, onRetry: () => waiting.abort() }),
			);
			expect(second.message.stopReason).toBe("aborted");
			expect(Date.now() - t0).toBeLessThan(2000);
			expect(retrying.requests).toHaveLength(1);
		} finally {
			await retrying.close();
		}
	});

	it("ends with an idle-timeout error when the server goes quiet, before or during the stream", async () => {
		server.enqueue({ hangMs: 3000, text: "late" }, { text: "slow", chunkDelayMs: 2000 });
		const t0 = Date.now();
		const silent = await collect(streamModel(model(), context(), { ...FAST_RETRY, idleTimeoutMs: 200 }));
		expect(silent.message.stopReason).toBe("error");
		expect(silent.message.errorMessage).toMatch(/idle timeout/);
		expect(Date.now() - t0).toBeLessThan(2000);

		const stalled = await collect(streamModel(model(), context(), { ...FAST_RETRY, idleTimeoutMs: 300 }));
		expect(stalled.message.stopReason).toBe("error");
		expect(stalled.message.errorMessage).toMatch(/idle timeout/);
		expect(server.requests).toHaveLength(2);
	});

	it("does not let keep-alive pings alone keep a request alive past the idle timeout", async () => {
		server.enqueue({ text: "never arrives", pings: 100, pingIntervalMs: 100 });
		const t0 = Date.now();
		const { message } = await collect(streamModel(model(), context(), { ...FAST_RETRY, maxRetries: 0, idleTimeoutMs: 500 }));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/idle timeout/);
		expect(Date.now() - t0).toBeLessThan(3000);
	});

	it("does not let empty deltas alone keep a request alive past the idle timeout", async () => {
		const emptyDeltasBy: Record<typeof api, Record<string, unknown>[]> = {
			"anthropic-messages": [
				{ type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", content: [], usage: { input_tokens: 5, output_tokens: 1 } } },
				{ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
				...Array.from({ length: 100 }, () => ({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "" } })),
			],
			"openai-completions": [
				{ object: "chat.completion.chunk", choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] },
				...Array.from({ length: 100 }, () => ({ object: "chat.completion.chunk", choices: [{ index: 0, delta: {}, finish_reason: null }] })),
			],
			"openai-responses": [
				{ type: "response.created", sequence_number: 0, response: { id: "resp_1", object: "response", status: "in_progress", output: [] } },
				{ type: "response.output_item.added", output_index: 0, item: { id: "msg_1", type: "message", role: "assistant", content: [] } },
				...Array.from({ length: 100 }, () => ({ type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: "" })),
			],
			"google-generative-ai": Array.from({ length: 100 }, () => ({ candidates: [{ content: { role: "model", parts: [{ text: "" }] }, index: 0 }] })),
		};
		const emptyDeltas = emptyDeltasBy[api];
		server.enqueue({ rawEvents: emptyDeltas, chunkDelayMs: 100 });
		const t0 = Date.now();
		const { message } = await collect(streamModel(model(), context(), { ...FAST_RETRY, maxRetries: 0, idleTimeoutMs: 500 }));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/idle timeout/);
		expect(Date.now() - t0).toBeLessThan(3000);
	});

	it("keeps a slow stream alive while its content keeps coming within the idle timeout", async () => {
		server.enqueue({ text: "slow but steady", chunkSize: 4, chunkDelayMs: 150 });
		const t0 = Date.now();
		const { message } = await collect(streamModel(model(), context(), { ...FAST_RETRY, idleTimeoutMs: 400 }));
		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([{ type: "text", text: "slow but steady" }]);
		expect(Date.now() - t0).toBeGreaterThan(400);
	});

	it("without a key, names the variable to set and the stream's apiKey option (no command-line flag), and sends nothing", async () => {
		for (const name of WIRES[api].keyEnvs) vi.stubEnv(name, "");
		try {
			const { message } = await collect(streamModel(model(), context()));
			expect(message.stopReason).toBe("error");
			expect(message.errorMessage).toContain(WIRES[api].keyEnvs[0]);
			expect(message.errorMessage).toContain("or pass the apiKey option.");
			expect(message.errorMessage).not.toContain("--api-key");
			expect(server.requests).toHaveLength(0);
		} finally {
			vi.unstubAllEnvs();
		}
	});

	it("never shows the API key in an error, even when the server echoes it", async () => {
		server.enqueue(
			{ status: 401, errorMessage: `invalid x-api-key ${TEST_KEY}` },
			{ text: "x", streamError: { message: `key ${TEST_KEY} revoked`, type: "authentication_error", afterChunks: firstDelta + 1 } },
		);
		const unauthorized = await collect(streamModel(model(), context(), FAST_RETRY));
		expect(unauthorized.message.errorMessage).toMatch(/401/);
		expect(unauthorized.message.errorMessage).toContain("***");
		expect(unauthorized.message.errorMessage).not.toContain(TEST_KEY);

		const midStream = await collect(streamModel(model(), context(), FAST_RETRY));
		expect(midStream.message.errorMessage).toContain("***");
		expect(midStream.message.errorMessage).not.toContain(TEST_KEY);
	});

	it("reports an unreachable server as a connection failure after retrying", async () => {
		const closed = await startScriptedModelServer();
		const url = closed.url;
		await closed.close();
		const unreachable = serverModel(server, api, { baseUrl: WIRES[api].baseUrl(closed) });
		const retries: RetryInfo[] = [];
		const { message } = await collect(
			streamModel(unreachable, context(), { ...FAST_RETRY, maxRetries: 2, onRetry: (i) => retries.push(i) }),
		);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/Could not connect/);
		expect(message.errorMessage).toContain(url);
		expect(retries).toHaveLength(2);
	});
});
