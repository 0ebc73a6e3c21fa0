// AgentSessions on models with a known context window, served by the scripted model server through models.json.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import type { AgentTool } from "../../../src/core/index.js";
import { loadModelRegistry, streamModel } from "../../../src/core/ai/index.js";
import {
	AgentSession,
	type AgentSessionOptions,
	SUMMARY_SYSTEM_PROMPT,
	type SessionEvent,
	SessionStore,
} from "../../../src/core/session/index.js";
import type { RecordedRequest, ScriptedModelServer } from "../../support/scripted-model-server.mjs";
import { systemOf } from "./compaction/server-model.js";

export const CWD = "/work/project";
export const SYSTEM_PROMPT = "You are loom, under test.";
/** A 4,000-token window: compaction comes after a few tool turns. */
export const TINY = "tiny-model";
/** A 100,000-token window: the threshold never fires, only overflow and /compact compact. */
export const ROOMY = "roomy-model";
export const TEST_KEY = "sk-compaction-test-0123456789";

/** A loom home whose models.json points the "scripted" provider at the server. */
export function writeModelsJson(home: string, server: ScriptedModelServer): string {
	const models = [
		{ id: TINY, contextWindow: 4000, maxTokens: 1000 },
		{ id: ROOMY, contextWindow: 100_000, maxTokens: 4000 },
	];
	const providers = { scripted: { baseUrl: server.openaiBaseUrl, api: "openai-completions", apiKey: TEST_KEY, models } };
	writeFileSync(join(home, "models.json"), JSON.stringify({ providers }));
	return home;
}

/** Returns a long report, so a few calls fill a tiny window. */
export const lookTool: AgentTool = {
	name: "look",
	label: "Look",
	description: "Returns a long report about a topic.",
	parameters: Type.Object({ topic: Type.String() }),
	async execute(_id, params: any) {
		return { content: [{ type: "text", text: `report on ${params.topic}: ${"r".repeat(1600)}` }], details: {} };
	},
};

export function openSession(home: string, modelId: string, overrides: Partial<AgentSessionOptions> = {}) {
	const options: AgentSessionOptions = {
		cwd: CWD,
		home,
		store: SessionStore.create({ home, cwd: CWD }),
		createStore: () => SessionStore.create({ home, cwd: CWD }),
		models: loadModelRegistry(home, {}),
		selection: { provider: "scripted", modelId },
		streamFn: streamModel,
		systemPrompt: SYSTEM_PROMPT,
		tools: [lookTool],
		...overrides,
	};
	const session = new AgentSession(options);
	const events: SessionEvent[] = [];
	session.subscribe((event) => {
		events.push(event);
	});
	return { session, events };
}

export function isSummaryRequest(request: RecordedRequest): boolean {
	return systemOf(request) === SUMMARY_SYSTEM_PROMPT;
}

/** Summary requests get "## Goal\nSUMMARY n" (n counting from 1); everything else comes from the queue. */
export function answerSummaries(server: ScriptedModelServer, label = "SUMMARY"): { count: () => number } {
	let count = 0;
	server.setResponder((_body, _index, request) => (isSummaryRequest(request) ? { text: `## Goal\n${label} ${++count}` } : undefined));
	return { count: () => count };
}

/** Ids of tool results in the request that do not follow the call they answer (providers reject those). */
export function orphanToolResults(request: RecordedRequest): string[] {
	const calls = new Set<string>();
	const orphans: string[] = [];
	for (const message of request.body.messages) {
		for (const call of message.tool_calls ?? []) calls.add(call.id);
		if (message.role === "tool" && !calls.has(message.tool_call_id)) orphans.push(message.tool_call_id);
	}
	return orphans;
}
