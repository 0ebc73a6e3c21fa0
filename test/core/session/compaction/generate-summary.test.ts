import { describe, expect, it } from "vitest";
import { streamModel } from "../../../../src/core/ai/index.js";
import {
	CompactionError,
	SUMMARY_SYSTEM_PROMPT,
	generateSummary,
} from "../../../../src/core/session/compaction/index.js";
import { assistant, call, result, user } from "./fixtures.js";
import { type Protocol, TEST_KEY, messagesOf, serverModel, systemOf } from "./server-model.js";
import { useScriptedServer } from "../../../support/use-scripted-server.js";

const server = useScriptedServer();

const older = [
	user("Rename the config loader to loadConfig"),
	assistant("Reading it first.", [call("c1", "read", { path: "src/config.ts" })]),
	result("c1", "read", "export function readCfg() {}"),
	assistant("Renamed readCfg to loadConfig in src/config.ts."),
];

async function rejection(promise: Promise<unknown>): Promise<CompactionError> {
	const error = await promise.then(
		() => undefined,
		(reason: unknown) => reason,
	);
	expect(error).toBeInstanceOf(CompactionError);
	return error as CompactionError;
}

describe.each<Protocol>(["anthropic-messages", "openai-completions"])("generateSummary over %s", (api) => {
	it("sends one summarisation request with the older messages and returns the summary text", async () => {
		server.enqueue({ text: "## Goal\nRename the loader\n\n## Next steps\n1. Update callers" });
		const summary = await generateSummary(serverModel(server, api), older, {
			streamFn: streamModel,
			apiKey: TEST_KEY,
			previousSummary: "## Goal\nClean up the config code",
			customInstructions: "Mention renamed symbols.",
		});
		expect(summary).toBe("## Goal\nRename the loader\n\n## Next steps\n1. Update callers");

		expect(server.requests).toHaveLength(1);
		const request = server.requests[0]!;
		expect(systemOf(request)).toBe(SUMMARY_SYSTEM_PROMPT);
		expect(request.body.tools ?? []).toEqual([]);
		// The conversation goes as text inside one user message, not as turns the model might continue.
		const messages = messagesOf(request);
		expect(messages).toHaveLength(1);
		expect(messages[0].role).toBe("user");
		const prompt = JSON.stringify(messages[0].content);
		expect(prompt).toContain("[User]: Rename the config loader to loadConfig");
		expect(prompt).toContain("[Tool result read]: export function readCfg() {}");
		expect(prompt).toContain("<previous-summary>");
		expect(prompt).toContain("Clean up the config code");
		expect(prompt).toContain("Mention renamed symbols.");
	});

	it("fails with the provider's reason, without the API key", async () => {
		server.enqueue({ status: 400, errorMessage: `invalid_request: bad things happened (key ${TEST_KEY})` });
		const error = await rejection(generateSummary(serverModel(server, api), older, { streamFn: streamModel, apiKey: TEST_KEY }));
		expect(error.code).toBe("summary_failed");
		expect(error.message).toMatch(/^Compaction failed: the model could not summarise the conversation: .*bad things happened/);
		expect(error.message).not.toContain(TEST_KEY);
	});

	it("stops when aborted mid-stream and leaves its input untouched", async () => {
		server.enqueue({ endless: true, text: "summary so far ", chunkDelayMs: 10 });
		const input = [...older];
		const snapshot = structuredClone(input);
		const controller = new AbortController();
		const pending = generateSummary(serverModel(server, api), input, { streamFn: streamModel, apiKey: TEST_KEY, signal: controller.signal });
		await server.waitForRequests(1, 10_000);
		controller.abort();
		const error = await rejection(pending);
		expect(error.code).toBe("aborted");
		expect(input).toEqual(snapshot);
	});
});

describe("generateSummary", () => {
	it("sends nothing when the signal is already aborted", async () => {
		const controller = new AbortController();
		controller.abort();
		const error = await rejection(
			generateSummary(serverModel(server, "openai-completions"), older, { streamFn: streamModel, signal: controller.signal }),
		);
		expect(error.code).toBe("aborted");
		expect(server.requests).toHaveLength(0);
	});

	it("rejects an empty answer with a clear reason", async () => {
		server.enqueue({ text: "   ", stopReason: "length" });
		const error = await rejection(generateSummary(serverModel(server, "openai-completions"), older, { streamFn: streamModel, apiKey: TEST_KEY }));
		expect(error.code).toBe("summary_failed");
		expect(error.message).toBe("Compaction failed: the model returned an empty summary (it ran out of output tokens before writing any).");
	});

	it("bounds the request by the summariser's context window", async () => {
		server.enqueue({ text: "short summary" });
		const long = Array.from({ length: 300 }, (_, i) => user(`step ${i}: ${"z".repeat(2000)}`));
		const model = serverModel(server, "openai-completions", { contextWindow: 16_000, maxTokens: 4096 });
		await generateSummary(model, long, { streamFn: streamModel, apiKey: TEST_KEY });
		const request = server.requests[0]!;
		// Within the window: (16,000 − 4,000 output) tokens at about 4 characters each.
		expect(JSON.stringify(request.body.messages).length).toBeLessThan(12_000 * 4);
		expect(request.body.max_tokens ?? request.body.max_completion_tokens).toBe(4000);
		expect(JSON.stringify(request.body.messages)).toContain("step 299:");
	});
});
