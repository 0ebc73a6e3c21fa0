// Small message builders for session tests, and a session on the scripted model server.
import type { AssistantMessage, ToolResultMessage, UserMessage } from "../../../src/core/index.js";
import { loadModelRegistry, streamModel } from "../../../src/core/llm/index.js";
import { type AgentSessionOptions, SessionStore } from "../../../src/core/session/index.js";
import type { ScriptedModelServer } from "../../support/scripted-model-server.mjs";

/** An AgentSession's options for the scripted server's OpenAI endpoint, a fresh session file in `home`, no tools. */
export function scriptedSessionOptions(server: ScriptedModelServer, home: string, overrides: Partial<AgentSessionOptions> = {}): AgentSessionOptions {
	const cwd = "/project";
	return {
		cwd,
		home,
		store: SessionStore.create({ home, cwd }),
		createStore: () => SessionStore.create({ home, cwd }),
		// An empty environment: keys come only from the selection, never from the machine running the tests.
		models: loadModelRegistry(home, {}),
		selection: { provider: "openai", modelId: "scripted-model", baseUrl: server.openaiBaseUrl, apiKey: "test-key" },
		streamFn: streamModel,
		systemPrompt: "You are a test.",
		...overrides,
	};
}

export function user(text: string): UserMessage {
	return { role: "user", content: text, timestamp: Date.now() };
}

export function assistant(text: string): AssistantMessage {
	return {
		role: "assistant",
		content: [{ type: "text", text }],
		api: "openai-completions",
		provider: "openai",
		model: "test-model",
		usage: {
			input: 10,
			output: 5,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 15,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: "stop",
		timestamp: Date.now(),
	};
}

export function toolResult(text: string): ToolResultMessage {
	return { role: "toolResult", toolCallId: "call_1", toolName: "bash", content: [{ type: "text", text }], isError: false, timestamp: Date.now() };
}
