// Small message builders for session tests.
import type { AssistantMessage, ToolResultMessage, UserMessage } from "../../../src/core/index.js";

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
