// Shared helpers for provider tests: models pointing at the scripted server, and stream collection.
import { Type } from "@sinclair/typebox";
import type {
	AgentTool,
	AssistantMessage,
	AssistantMessageEvent,
	AssistantMessageEventStream,
	Context,
	Model,
	ToolResultMessage,
	UserMessage,
} from "../../../../src/core/index.js";
import { emptyUsage } from "../../../../src/core/ai/index.js";
import type { ScriptedModelServer } from "../../../support/scripted-model-server.mjs";

export type Protocol = "anthropic-messages" | "openai-completions" | "openai-responses" | "google-generative-ai";
export const PROTOCOLS: Protocol[] = ["anthropic-messages", "openai-completions", "openai-responses", "google-generative-ai"];
export const TEST_KEY = "sk-test-SECRET-0123456789abcdef";

/** What tests need to know of each wire format. */
export interface Wire {
	provider: string;
	modelId: string;
	baseUrl(server: ScriptedModelServer): string;
	/** Variables a key is read from. */
	keyEnvs: string[];
	/** Index of the first text delta among the SSE events the server writes. */
	firstDelta: number;
	/** The status the provider answers when it is overloaded. */
	overloaded: number;
}

export const WIRES: Record<Protocol, Wire> = {
	"anthropic-messages": {
		provider: "anthropic",
		modelId: "claude-sonnet-5-5",
		baseUrl: (server) => server.anthropicBaseUrl,
		keyEnvs: ["ANTHROPIC_API_KEY"],
		firstDelta: 2,
		overloaded: 529,
	},
	"openai-completions": {
		provider: "openai",
		modelId: "gpt-5.6-terra",
		baseUrl: (server) => server.openaiBaseUrl,
		keyEnvs: ["OPENAI_API_KEY"],
		firstDelta: 1,
		overloaded: 503,
	},
	// response.created, response.in_progress, output_item.added, content_part.added, then the deltas.
	"openai-responses": {
		provider: "openai",
		modelId: "gpt-5.6-terra",
		baseUrl: (server) => server.openaiBaseUrl,
		keyEnvs: ["OPENAI_API_KEY"],
		firstDelta: 4,
		overloaded: 503,
	},
	// Every chunk carries content.
	"google-generative-ai": {
		provider: "google",
		modelId: "gemini-3.1-pro",
		baseUrl: (server) => server.googleBaseUrl,
		keyEnvs: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
		firstDelta: 0,
		overloaded: 503,
	},
};

export function serverModel(server: ScriptedModelServer, api: Protocol, overrides: Partial<Model> = {}): Model {
	const wire = WIRES[api];
	return {
		id: wire.modelId,
		name: "scripted",
		api,
		provider: wire.provider,
		baseUrl: wire.baseUrl(server),
		reasoning: true,
		input: ["text", "image"],
		cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
		contextWindow: 200_000,
		maxTokens: 8192,
		...overrides,
	};
}

export function user(content: string): UserMessage {
	return { role: "user", content, timestamp: Date.now() };
}

/** An assistant message as `model` produced it (no usage); stopReason from whether it calls tools. */
export function assistantFrom(
	model: Pick<Model, "api" | "provider" | "id">,
	content: AssistantMessage["content"],
	extra: Partial<AssistantMessage> = {},
): AssistantMessage {
	return {
		role: "assistant",
		content,
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: emptyUsage(),
		stopReason: content.some((block) => block.type === "toolCall") ? "toolUse" : "stop",
		timestamp: 1,
		...extra,
	};
}

export function toolResult(toolCallId: string, content: ToolResultMessage["content"], isError = false, toolName = "read"): ToolResultMessage {
	return { role: "toolResult", toolCallId, toolName, content, isError, timestamp: 2 };
}

const addParams = Type.Object({ a: Type.Number(), b: Type.Number() });
/** A tool the scripted model can call: adds two numbers. */
export const addTool: AgentTool<typeof addParams> = {
	name: "add",
	label: "Add",
	description: "Adds two numbers.",
	parameters: addParams,
	execute: async (_id, { a, b }) => ({ content: [{ type: "text", text: String(a + b) }], details: { sum: a + b } }),
};

export function context(prompt = "hello"): Context {
	return { systemPrompt: "You are a test.", messages: [user(prompt)] };
}

/**
 * Reads a stream to its end. `previews` holds a copy of the tool-call arguments at each toolcall_delta,
 * taken when the event arrived (the partial message itself keeps changing afterwards).
 */
export async function collect(
	stream: AssistantMessageEventStream | Promise<AssistantMessageEventStream>,
): Promise<{ events: AssistantMessageEvent[]; message: AssistantMessage; previews: Record<string, any>[] }> {
	const resolved = await stream;
	const events: AssistantMessageEvent[] = [];
	const previews: Record<string, any>[] = [];
	for await (const event of resolved) {
		events.push(event);
		if (event.type === "toolcall_delta") {
			const block = event.partial.content[event.contentIndex];
			if (block?.type === "toolCall") previews.push(structuredClone(block.arguments));
		}
	}
	return { events, message: await resolved.result(), previews };
}

export function types(events: AssistantMessageEvent[]): string[] {
	return events.map((event) => event.type);
}

/** Retries in tests wait a few milliseconds, not seconds. */
export const FAST_RETRY = { retryBaseDelayMs: 5, apiKey: TEST_KEY };
