// The integration the session layer is meant to do, wired by hand with the real Agent, store and providers:
// a long tool-using run in a tiny window compacts during the run, and resuming the file rebuilds the same view.
import { Type } from "@sinclair/typebox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, type AgentMessage, type AgentTool, type AssistantMessage } from "../../../../src/core/index.js";
import { isContextOverflow, streamModel } from "../../../../src/core/ai/index.js";
import {
	SUMMARY_SYSTEM_PROMPT,
	applyCompactionToLoopMessages,
	buildCompactedContext,
	compact,
	estimateContextTokens,
	convertToLlmWithSummaries,
	isCompactionSummary,
	resolveCompactionSettings,
	shouldCompact,
} from "../../../../src/core/session/compaction/index.js";
import { SessionStore } from "../../../../src/core/session/index.js";
import { type ScriptedModelServer, startScriptedModelServer } from "../../../support/scripted-model-server.mjs";
import { tempDir } from "../../../support/temp-dir.js";
import { TEST_KEY, messagesOf, serverModel, systemOf, textOf } from "./server-model.js";

let server: ScriptedModelServer;
beforeAll(async () => {
	server = await startScriptedModelServer();
});
afterAll(async () => {
	await server.close();
});

/** Tool-using turns in the run: enough for two compactions in a 4,000-token window. */
const TURNS = 14;

const lookTool: AgentTool = {
	name: "look",
	label: "Look",
	description: "Returns a long report about a topic.",
	parameters: Type.Object({ topic: Type.String() }),
	async execute(_id, params: any) {
		return { content: [{ type: "text", text: `report on ${params.topic}: ${"r".repeat(1600)}` }], details: {} };
	},
};

describe("compaction wired into a run (the recipe for AgentSession)", () => {
	it("compacts during a long run in a tiny window, and a resume rebuilds the same view", async () => {
		const model = serverModel(server, "openai-completions", { contextWindow: 4000, maxTokens: 1000 });
		const settings = resolveCompactionSettings({ reserveTokens: 1000, keepRecentTokens: 800 });
		const systemPrompt = "You are loom.";
		const store = SessionStore.create({ home: tempDir("loom-recipe-"), cwd: "/work/project" });
		const summaries: string[] = [];
		let lastView: AgentMessage[] = [];

		// Summary requests are recognised by their system prompt; the run's turns come from the queue.
		server.setResponder((body) => {
			const system = body.messages?.[0]?.content;
			if (system === SUMMARY_SYSTEM_PROMPT) {
				summaries.push(`SUMMARY ${summaries.length + 1}`);
				return { text: `## Goal\nSUMMARY ${summaries.length}` };
			}
			return undefined;
		});
		for (let i = 0; i < TURNS; i++) server.enqueue({ toolCalls: [{ id: `call_${i}`, name: "look", arguments: { topic: `topic-${i}` } }] });
		server.enqueue({ text: "All topics looked at." });

		const agent = new Agent({
			initialState: { systemPrompt, model, tools: [lookTool], messages: buildCompactedContext(store.entries).messages },
			streamFn: streamModel,
			convertToLlm: convertToLlmWithSummaries,
			getApiKey: () => TEST_KEY,
			transformContext: async (messages, signal) => {
				let view = applyCompactionToLoopMessages(messages, store.entries);
				if (shouldCompact(estimateContextTokens(view, { systemPrompt, tools: [lookTool] }), model.contextWindow, settings)) {
					const result = await compact({ entries: store.entries, model, streamFn: streamModel, apiKey: TEST_KEY, signal, settings });
					store.append({ type: "compaction", ...result });
					view = applyCompactionToLoopMessages(messages, store.entries);
				}
				lastView = view;
				return view;
			},
		});
		agent.subscribe((event) => {
			if (event.type === "message_end") store.append({ type: "message", message: event.message });
		});

		await agent.prompt({ role: "user", content: "Look at every topic.", timestamp: Date.now() });

		expect(summaries.length).toBeGreaterThanOrEqual(2);
		const isSummary = (request: (typeof server.requests)[number]) => systemOf(request) === SUMMARY_SYSTEM_PROMPT;
		const normal = server.requests.filter((request) => !isSummary(request));
		expect(normal).toHaveLength(TURNS + 1);
		// Not too early: the first compaction comes only once the context has grown near the threshold.
		const firstSummary = server.requests.findIndex(isSummary);
		expect(firstSummary).toBeGreaterThanOrEqual(5);
		expect(JSON.stringify(server.requests[firstSummary - 1]!.body.messages).length / 4).toBeGreaterThan(2000);
		for (const request of normal) {
			// Every request stays under the threshold (about 4 characters a token), and no tool result lost its call.
			expect(JSON.stringify(request.body.messages).length / 4).toBeLessThan(3000);
			const calls = new Set<string>();
			for (const message of messagesOf(request)) {
				for (const toolCall of message.tool_calls ?? []) calls.add(toolCall.id);
				if (message.role === "tool") expect(calls.has(message.tool_call_id)).toBe(true);
			}
		}
		// After the first compaction, each request carries the latest summary; the last one the last summary.
		const last = normal.at(-1)!;
		expect(textOf(last)).toContain(`SUMMARY ${summaries.length}`);
		expect(textOf(last)).not.toContain("Look at every topic.");
		// The second summary request built on the first.
		const summaryRequests = server.requests.filter((request) => systemOf(request) === SUMMARY_SYSTEM_PROMPT);
		expect(textOf(summaryRequests[1]!)).toContain("<previous-summary>\\n## Goal\\nSUMMARY 1");

		// The file holds every message; resuming it gives the view of the last request plus its answer.
		const messageEntries = store.entries.filter((entry) => entry.type === "message");
		expect(messageEntries).toHaveLength(1 + TURNS * 2 + 1);
		store.close();
		const resumed = await SessionStore.open(store.file!);
		const view = buildCompactedContext(resumed.entries).messages;
		expect(isCompactionSummary(view[0]!)).toBe(true);
		expect(JSON.parse(JSON.stringify(view.slice(0, -1)))).toEqual(JSON.parse(JSON.stringify(lastView)));
		expect(view.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "All topics looked at." }] });
		resumed.close();
	});

	it("recovers from a context overflow: one forced compaction, then one retry that succeeds", async () => {
		server.reset();
		const model = serverModel(server, "anthropic-messages");
		const store = SessionStore.create({ home: tempDir("loom-recipe-"), cwd: "/work/project" });
		const agent = new Agent({
			initialState: { systemPrompt: "You are loom.", model },
			streamFn: streamModel,
			convertToLlm: convertToLlmWithSummaries,
			getApiKey: () => TEST_KEY,
		});
		agent.subscribe((event) => {
			if (event.type === "message_end") store.append({ type: "message", message: event.message });
		});
		const ask = (text: string) => agent.prompt({ role: "user", content: text, timestamp: Date.now() });
		for (let i = 0; i < 4; i++) {
			server.enqueue({ text: `answer ${i}: ${"a".repeat(2000)}` });
			await ask(`question ${i}`);
		}
		server.enqueue({ contextOverflow: true, contextWindow: 200_000, requestedTokens: 250_000 });
		await ask("final question");
		const failed = agent.state.messages.at(-1) as AssistantMessage;
		expect(isContextOverflow(failed, model.contextWindow)).toBe(true);

		// Recovery, as the session does it: compact (forced: the estimate said it fit), then retry the turn once.
		server.setResponder((body) => (JSON.stringify(body.system ?? "").includes("You summarise conversations") ? { text: "## Goal\nOVERFLOW SUMMARY" } : undefined));
		const result = await compact({ entries: store.entries, model, streamFn: streamModel, apiKey: TEST_KEY, force: true });
		store.append({ type: "compaction", ...result });
		const view = buildCompactedContext(store.entries).messages;
		while (view.length > 0 && (view.at(-1) as AssistantMessage).stopReason === "error") view.pop();
		agent.replaceMessages(view);
		server.enqueue({ text: "recovered" });
		await agent.continue();

		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop", content: [{ type: "text", text: "recovered" }] });
		const retry = server.requests.at(-1)!;
		expect(systemOf(retry)).toBe("You are loom.");
		expect(textOf(retry)).toContain("OVERFLOW SUMMARY");
		expect(textOf(retry)).toContain("final question");
		expect(textOf(retry)).not.toContain("question 0");
		const summaryRequest = server.requests.at(-2)!;
		expect(textOf(summaryRequest)).toContain("[User]: question 0");
		expect(textOf(summaryRequest)).not.toContain("final question");

		// Nothing lost: the file has every message, the failed one included; resuming gives the retried view.
		expect(store.entries.filter((entry) => entry.type === "message")).toHaveLength(4 * 2 + 2 + 1);
		store.close();
		const resumed = await SessionStore.open(store.file!);
		const resumedView = buildCompactedContext(resumed.entries).messages;
		expect(resumedView.map((message) => [message.role, (message as AssistantMessage).stopReason])).toEqual([
			["compactionSummary", undefined],
			["user", undefined],
			["assistant", "error"],
			["assistant", "stop"],
		]);
		resumed.close();
	});
});
