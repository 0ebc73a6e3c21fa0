import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { Agent, type AgentTool, type AssistantMessage } from "../../../../src/core/index.js";
import { streamModel } from "../../../../src/core/ai/index.js";
import { useScriptedServer } from "../../../support/use-scripted-server.js";
import { collect, context, FAST_RETRY, serverModel, TEST_KEY } from "./helpers.js";

const server = useScriptedServer();

/** An OpenAI chat-completion chunk with one choice. */
function chunk(delta: Record<string, unknown>, finishReason: string | null = null) {
	return { object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finishReason }] };
}

function openai(...deltas: Record<string, unknown>[]): (string | Record<string, unknown>)[] {
	return [chunk({ role: "assistant", content: "" }), ...deltas.map((delta) => chunk(delta)), chunk({}, "tool_calls"), "data: [DONE]\n\n"];
}

/** An Anthropic stream around the given content events. */
function anthropic(...events: Record<string, unknown>[]): Record<string, unknown>[] {
	return [
		{ type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", content: [], usage: { input_tokens: 5, output_tokens: 1 } } },
		...events,
		{ type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 9 } },
		{ type: "message_stop" },
	];
}

async function run(api: "anthropic-messages" | "openai-completions", rawEvents: (string | Record<string, unknown>)[]) {
	server.enqueue({ rawEvents }, { text: "never: malformed answers are not retried" });
	const result = await collect(streamModel(serverModel(server, api), context(), FAST_RETRY));
	expect(server.requests).toHaveLength(1);
	return result.message;
}

function toolNames(message: AssistantMessage): string[] {
	return message.content.flatMap((block) => (block.type === "toolCall" ? [block.name] : []));
}

describe("malformed chunks from an OpenAI-compatible server", () => {
	it("ends the request with a clear error on a tool-call delta whose index is not a number, and makes no call of it", async () => {
		const message = await run("openai-completions", openai({ tool_calls: [{ index: "zz" }] }));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/Malformed event from openai .*tool_calls\[0\]\.index is a string, expected a whole number/);
		expect(toolNames(message)).toEqual([]);
	});

	it("ends the request with a clear error on content that is not text, rather than dropping it", async () => {
		const message = await run("openai-completions", openai({ content: "fine so far. " }, { content: 42 }));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/Malformed event from openai .*delta\.content is a number, expected text/);
		expect(message.content).toEqual([{ type: "text", text: "fine so far. " }]);
	});

	it("ends the request with an error when a tool call never gets a name", async () => {
		const message = await run(
			"openai-completions",
			openai({ tool_calls: [{ index: 0, id: "call_1", type: "function", function: { arguments: '{"a":1}' } }] }),
		);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/tool call call_1 has no name/);
	});

	it("still reads what compatible servers really send: text parts in an array, arguments as an object", async () => {
		server.enqueue({
			rawEvents: openai(
				{ content: [{ type: "text", text: "Calling." }] },
				{ tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "add", arguments: { a: 1, b: 2 } } }] },
			),
		});
		const { message } = await collect(streamModel(serverModel(server, "openai-completions"), context(), FAST_RETRY));
		expect(message.stopReason).toBe("toolUse");
		expect(message.content).toEqual([
			{ type: "text", text: "Calling." },
			{ type: "toolCall", id: "call_1", name: "add", arguments: { a: 1, b: 2 } },
		]);
	});

	it("runs no tool of a malformed answer in an agent run", async () => {
		let executed = 0;
		const anything = Type.Object({}, { additionalProperties: true });
		const tool: AgentTool<typeof anything> = {
			name: "",
			label: "nameless",
			description: "A tool no call may reach through a malformed chunk.",
			parameters: anything,
			execute: async () => {
				executed++;
				return { content: [{ type: "text", text: "ran" }], details: undefined };
			},
		};
		server.enqueue({ rawEvents: openai({ tool_calls: [{ index: "zz", function: { arguments: "{}" } }] }) });
		const agent = new Agent({
			initialState: { model: serverModel(server, "openai-completions"), tools: [tool] },
			streamFn: streamModel,
			getApiKey: () => TEST_KEY,
		});
		await agent.prompt("go");
		expect(executed).toBe(0);
		expect(agent.state.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		expect((agent.state.messages[1] as AssistantMessage).stopReason).toBe("error");
	});
});

describe("malformed events from an Anthropic server", () => {
	it("ends the request with a clear error on a text delta that is not text", async () => {
		const message = await run(
			"anthropic-messages",
			anthropic(
				{ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
				{ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "ok " } },
				{ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: 42 } },
			),
		);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/Malformed event from anthropic .*delta\.text is a number, expected text/);
		expect(message.content).toEqual([{ type: "text", text: "ok " }]);
	});

	it("ends the request with a clear error on a tool_use block without a name, and makes no call of it", async () => {
		const message = await run(
			"anthropic-messages",
			anthropic({ type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", input: {} } }),
		);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/content_block\.name is missing, expected a tool name/);
		expect(toolNames(message)).toEqual([]);
	});

	it("ends the request with a clear error on tool input that is not text", async () => {
		const message = await run(
			"anthropic-messages",
			anthropic(
				{ type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", name: "add", input: {} } },
				{ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: { a: 1 } } },
			),
		);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/delta\.partial_json is an object, expected text/);
	});

	it("ends the request with a clear error on an event that is not an object", async () => {
		const message = await run("anthropic-messages", ["event: message_start\ndata: 42\n\n"]);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/Malformed event from anthropic .*the event is a number, expected an object/);
	});
});
