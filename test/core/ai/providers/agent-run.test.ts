import { describe, expect, it } from "vitest";
import { Agent, type AgentEvent, type AssistantMessage, type ToolResultMessage } from "../../../../src/core/index.js";
import { streamModel } from "../../../../src/core/ai/index.js";
import { addTool as add, PROTOCOLS, serverModel, TEST_KEY } from "./helpers.js";
import { useScriptedServer } from "../../../support/use-scripted-server.js";

const server = useScriptedServer();

describe.each(PROTOCOLS)("a full agent run over %s", (api) => {
	it("executes the model's tool call and sends the result back in the second request", async () => {
		server.enqueue(
			{ text: "Adding.", toolCalls: [{ id: "call_add_1", name: "add", arguments: { a: 2, b: 40 } }], chunkSize: 3 },
			{ text: "The sum is 42." },
		);
		const agent = new Agent({
			initialState: { model: serverModel(server, api), tools: [add], systemPrompt: "You add numbers." },
			streamFn: streamModel,
			getApiKey: () => TEST_KEY,
		});
		const events: AgentEvent["type"][] = [];
		agent.subscribe((event) => {
			events.push(event.type);
		});
		await agent.prompt("What is 2 + 40?");

		expect(agent.state.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		const final = agent.state.messages.at(-1) as AssistantMessage;
		expect(final.content).toEqual([{ type: "text", text: "The sum is 42." }]);
		expect(agent.state.messages[2]).toMatchObject({ role: "toolResult", toolCallId: "call_add_1", isError: false });
		expect(events).toContain("tool_execution_end");
		expect(events.at(-1)).toBe("agent_end");

		expect(server.requests).toHaveLength(2);
		const second = server.requests[1]!.body;
		if (api === "anthropic-messages") {
			expect(second.messages[1]).toEqual({
				role: "assistant",
				content: [
					{ type: "text", text: "Adding." },
					{ type: "tool_use", id: "call_add_1", name: "add", input: { a: 2, b: 40 } },
				],
			});
			expect(second.messages[2].content[0]).toMatchObject({
				type: "tool_result",
				tool_use_id: "call_add_1",
				is_error: false,
				content: [{ type: "text", text: "42" }],
			});
		} else if (api === "openai-responses") {
			expect(second.input.slice(1)).toEqual([
				{ role: "assistant", content: "Adding." },
				{ type: "function_call", call_id: "call_add_1", name: "add", arguments: '{"a":2,"b":40}' },
				{ type: "function_call_output", call_id: "call_add_1", output: "42" },
			]);
		} else if (api === "google-generative-ai") {
			expect(second.contents.slice(1)).toEqual([
				{ role: "model", parts: [{ text: "Adding." }, { functionCall: { id: "call_add_1", name: "add", args: { a: 2, b: 40 } }, thoughtSignature: expect.any(String) }] },
				{ role: "user", parts: [{ functionResponse: { id: "call_add_1", name: "add", response: { output: "42" } } }] },
			]);
		} else {
			expect(second.messages.slice(2)).toEqual([
				{
					role: "assistant",
					content: "Adding.",
					tool_calls: [{ id: "call_add_1", type: "function", function: { name: "add", arguments: '{"a":2,"b":40}' } }],
				},
				{ role: "tool", tool_call_id: "call_add_1", content: "42" },
			]);
		}
	});
	it("gives tool calls that share an id unique ids before they run, so every result pairs with its call", async () => {
		const sums = [
			{ a: 1, b: 1 },
			{ a: 2, b: 2 },
			{ a: 3, b: 3 },
		];
		server.enqueue({ toolCalls: sums.map((args) => ({ id: "dup1", name: "add", arguments: args })) }, { text: "2, 4 and 6." });
		const agent = new Agent({
			initialState: { model: serverModel(server, api), tools: [add] },
			streamFn: streamModel,
			getApiKey: () => TEST_KEY,
		});
		const started: string[] = [];
		agent.subscribe((event) => {
			if (event.type === "tool_execution_start") started.push(event.toolCallId);
		});
		await agent.prompt("add them");

		const calls = (agent.state.messages[1] as AssistantMessage).content.flatMap((b) => (b.type === "toolCall" ? [b] : []));
		const ids = calls.map((c) => c.id);
		expect(ids[0]).toBe("dup1");
		expect(new Set(ids).size).toBe(3);
		expect(started).toEqual(ids);
		const results = agent.state.messages.slice(2, 5) as ToolResultMessage[];
		expect(results.map((r) => [r.toolCallId, r.content])).toEqual(
			calls.map((c, i) => [c.id, [{ type: "text", text: String(sums[i]!.a + sums[i]!.b) }]]),
		);

		// The next request carries all three results, each after its own call.
		const second = server.requests[1]!.body;
		if (api === "anthropic-messages") {
			expect(second.messages[1].content.map((b: any) => b.id)).toEqual(ids);
			expect(second.messages[2].content.map((b: any) => [b.tool_use_id, b.content[0].text])).toEqual([
				[ids[0], "2"],
				[ids[1], "4"],
				[ids[2], "6"],
			]);
		} else if (api === "openai-responses") {
			expect(second.input.slice(1).map((item: any) => [item.type, item.call_id, item.output])).toEqual([
				["function_call", ids[0], undefined],
				["function_call", ids[1], undefined],
				["function_call", ids[2], undefined],
				["function_call_output", ids[0], "2"],
				["function_call_output", ids[1], "4"],
				["function_call_output", ids[2], "6"],
			]);
		} else if (api === "google-generative-ai") {
			expect(second.contents[1].parts.map((part: any) => part.functionCall.id)).toEqual(ids);
			expect(second.contents[2].parts.map((part: any) => [part.functionResponse.id, part.functionResponse.response.output])).toEqual([
				[ids[0], "2"],
				[ids[1], "4"],
				[ids[2], "6"],
			]);
		} else {
			expect(second.messages[1].tool_calls.map((c: any) => c.id)).toEqual(ids);
			expect(second.messages.slice(2).map((m: any) => [m.tool_call_id, m.content])).toEqual([
				[ids[0], "2"],
				[ids[1], "4"],
				[ids[2], "6"],
			]);
		}
	});
});
