import { describe, expect, it } from "vitest";
import { createAssistantMessageEventStream } from "../../../../src/core/ai/messages.js";
import { PartialAssistantMessage } from "../../../../src/core/ai/providers/partial-message.js";
import type { Model, ToolCall } from "../../../../src/core/ai/llm-types.js";

const MODEL: Model = {
	id: "m",
	name: "m",
	api: "openai-completions",
	provider: "openai",
	baseUrl: "http://127.0.0.1:1",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 100_000,
	maxTokens: 1000,
};

describe("PartialAssistantMessage", () => {
	it("previews long streamed tool arguments in linear time, and gives them complete at the end", () => {
		const stream = createAssistantMessageEventStream();
		const partial = new PartialAssistantMessage(MODEL, stream);
		partial.start();
		const index = partial.startToolCall("call_1", "write");
		const args = { path: "big.txt", content: "line of a large file\n".repeat(10_000) };
		const json = JSON.stringify(args);
		const block = partial.message.content[index] as ToolCall;
		const previews = new Set<number>();
		const started = performance.now();
		for (let i = 0; i < json.length; i += 4) {
			partial.appendToolArguments(index, json.slice(i, i + 4));
			previews.add(String(block.arguments.content ?? "").length);
		}
		const elapsed = performance.now() - started;
		// 200 KB in 4-character deltas: parsing all of it on each delta took tens of seconds.
		expect(elapsed).toBeLessThan(5000);
		// The preview grows as the text arrives.
		expect(previews.size).toBeGreaterThan(20);
		expect(block.arguments.path).toBe("big.txt");
		partial.endBlock(index);
		expect(block.arguments).toEqual(args);
		expect(stream.takeQueued().filter((event) => event.type === "toolcall_delta")).toHaveLength(Math.ceil(json.length / 4));
	});
});
