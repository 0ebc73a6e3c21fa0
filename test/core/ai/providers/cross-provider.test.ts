// A conversation started on one wire API continues on another: the agent switches model between prompts, and
// the next provider gets the whole conversation in its own format, without what only the first could read.
import { describe, expect, it } from "vitest";
import { Agent, type AssistantMessage } from "../../../../src/core/index.js";
import { streamModel } from "../../../../src/core/ai/index.js";
import { useScriptedServer } from "../../../support/use-scripted-server.js";
import { addTool as add, type Protocol, PROTOCOLS, serverModel, TEST_KEY } from "./helpers.js";

const server = useScriptedServer();

const THOUGHT = "pondering the sum";
const SIGNATURE = "opaque-signature-of-the-first-model";

/** The tool calls and their results in a request body, as [call id, name, result text], in order. */
function toolRound(api: Protocol, body: any): [string, string, string][] {
	switch (api) {
		case "anthropic-messages": {
			const calls = body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content.filter((b: any) => b.type === "tool_use") : []));
			const results = body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content.filter((b: any) => b.type === "tool_result") : []));
			return calls.map((c: any, i: number) => [c.id, c.name, `${results[i].tool_use_id}:${results[i].content[0].text}`]);
		}
		case "openai-completions": {
			const calls = body.messages.flatMap((m: any) => m.tool_calls ?? []);
			const results = body.messages.filter((m: any) => m.role === "tool");
			return calls.map((c: any, i: number) => [c.id, c.function.name, `${results[i].tool_call_id}:${results[i].content}`]);
		}
		case "openai-responses": {
			const calls = body.input.filter((item: any) => item.type === "function_call");
			const results = body.input.filter((item: any) => item.type === "function_call_output");
			return calls.map((c: any, i: number) => [c.call_id, c.name, `${results[i].call_id}:${results[i].output}`]);
		}
		case "google-generative-ai": {
			const parts = body.contents.flatMap((c: any) => c.parts);
			const calls = parts.filter((p: any) => p.functionCall).map((p: any) => p.functionCall);
			const results = parts.filter((p: any) => p.functionResponse).map((p: any) => p.functionResponse);
			return calls.map((c: any, i: number) => [c.id, c.name, `${results[i].id}:${results[i].response.output}`]);
		}
	}
}

/** The thinking a request carries in the API's own form (thinking blocks, reasoning items, thought parts). */
function ownThinking(api: Protocol, body: any): unknown[] {
	switch (api) {
		case "anthropic-messages":
			return body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content.filter((b: any) => b.type === "thinking") : []));
		case "openai-completions":
			return [];
		case "openai-responses":
			return body.input.filter((item: any) => item.type === "reasoning");
		case "google-generative-ai":
			return body.contents.flatMap((c: any) => c.parts.filter((p: any) => p.thought));
	}
}

describe.each(PROTOCOLS)("a conversation started over %s", (from) => {
	it.each(PROTOCOLS)("continues over %s", async (to) => {
		server.enqueue(
			{ thinking: THOUGHT, thinkingSignature: SIGNATURE, text: "Adding.", toolCalls: [{ id: "call_sum_1", name: "add", arguments: { a: 2, b: 40 } }] },
			{ text: "The sum is 42." },
			{ text: `Still 42, says ${to}.` },
		);
		const first = serverModel(server, from);
		// The same API on another model is a switch too: its signatures are not valid there either.
		const second = to === from ? serverModel(server, to, { id: `${first.id}-next` }) : serverModel(server, to);
		const agent = new Agent({
			initialState: { model: first, tools: [add], thinkingLevel: "medium" },
			streamFn: streamModel,
			getApiKey: () => TEST_KEY,
		});
		await agent.prompt("What is 2 + 40?");
		agent.setModel(second);
		await agent.prompt("Are you sure?");

		const last = agent.state.messages.at(-1) as AssistantMessage;
		expect(last).toMatchObject({ stopReason: "stop", api: to, content: [{ type: "text", text: `Still 42, says ${to}.` }] });
		const request = server.requests[2]!;
		const body = request.body;
		// The call and its result stay paired, under one id.
		expect(toolRound(to, body)).toEqual([["call_sum_1", "add", "call_sum_1:42"]]);
		// The first model's thinking reaches the second as words, never in a form only the first could read.
		expect(ownThinking(to, body)).toEqual([]);
		const sent = JSON.stringify(body);
		expect(sent).toContain(THOUGHT);
		expect(sent).not.toContain(SIGNATURE);
		for (const text of ["What is 2 + 40?", "Adding.", "The sum is 42.", "Are you sure?"]) expect(sent).toContain(text);
	});

	it("keeps its own reasoning for the same model, where the API has a form for it", async () => {
		server.enqueue(
			{ thinking: THOUGHT, thinkingSignature: SIGNATURE, toolCalls: [{ id: "call_sum_1", name: "add", arguments: { a: 2, b: 40 } }] },
			{ text: "The sum is 42." },
		);
		const agent = new Agent({
			initialState: { model: serverModel(server, from), tools: [add], thinkingLevel: "medium" },
			streamFn: streamModel,
			getApiKey: () => TEST_KEY,
		});
		await agent.prompt("What is 2 + 40?");
		const body = server.requests[1]!.body;
		expect(toolRound(from, body)).toEqual([["call_sum_1", "add", "call_sum_1:42"]]);
		if (from === "openai-completions") {
			// Chat Completions has no place for a model's own reasoning: it is not sent.
			expect(JSON.stringify(body)).not.toContain(THOUGHT);
		} else {
			expect(JSON.stringify(body)).toContain(SIGNATURE);
			if (from !== "google-generative-ai") expect(ownThinking(from, body)).toHaveLength(1);
		}
	});
});
