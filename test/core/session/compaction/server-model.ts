// A model pointing at the scripted model server, and what a recorded request carried.
import type { Model } from "../../../../src/core/index.js";
import type { RecordedRequest, ScriptedModelServer } from "../../../support/scripted-model-server.mjs";
import { type Protocol, serverModel as providerTestModel } from "../../ai/providers/helpers.js";

export type { Protocol };
export const TEST_KEY = "sk-test-COMPACTION-0123456789";

/** The provider tests' model, without thinking and free, so summaries and costs stay out of the way. */
export function serverModel(server: ScriptedModelServer, api: Protocol, overrides: Partial<Model> = {}): Model {
	const anthropic = api === "anthropic-messages";
	return providerTestModel(server, api, {
		id: anthropic ? "claude-test" : "gpt-test",
		reasoning: false,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		...overrides,
	});
}

/** The system prompt of a recorded request, in either protocol. */
export function systemOf(request: RecordedRequest): string {
	const body = request.body;
	if (request.format === "anthropic") {
		return typeof body.system === "string" ? body.system : (body.system ?? []).map((block: any) => block.text).join("");
	}
	const system = body.messages.find((message: any) => message.role === "system" || message.role === "developer");
	return typeof system?.content === "string" ? system.content : (system?.content ?? []).map((part: any) => part.text).join("");
}

/** The conversation messages of a recorded request (system prompt excluded), in either protocol. */
export function messagesOf(request: RecordedRequest): any[] {
	return request.body.messages.filter((message: any) => message.role !== "system" && message.role !== "developer");
}

/** All text a recorded request's conversation carried, tool results included. */
export function textOf(request: RecordedRequest): string {
	return JSON.stringify(messagesOf(request));
}
