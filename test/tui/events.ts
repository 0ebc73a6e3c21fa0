// Builders for the session events the screen tests replay.
import type { AgentEvent } from "../../src/core/engine/agent-types.js";
import type { AssistantMessage, AssistantMessageEvent, ToolCall, Usage } from "../../src/core/ai/llm-types.js";

export function usage(input = 0, output = 0, cost = 0): Usage {
	return {
		input,
		output,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: input + output,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost },
	};
}

export function assistant(
	content: AssistantMessage["content"] | string,
	extra: Partial<AssistantMessage> = {},
): AssistantMessage {
	return {
		role: "assistant",
		content: typeof content === "string" ? [{ type: "text", text: content }] : content,
		api: "anthropic-messages",
		provider: "test",
		model: "test-model",
		usage: usage(),
		stopReason: "stop",
		timestamp: 0,
		...extra,
	};
}

export function toolCall(id: string, name: string, args: Record<string, unknown>): ToolCall {
	return { type: "toolCall", id, name, arguments: args };
}

export function update(ame: AssistantMessageEvent): AgentEvent {
	return { type: "message_update", message: assistant([]), assistantMessageEvent: ame };
}

export function textDelta(delta: string, contentIndex = 0): AgentEvent {
	return update({ type: "text_delta", contentIndex, delta, partial: assistant([]) });
}

export function thinkingDelta(delta: string, contentIndex = 0): AgentEvent {
	return update({ type: "thinking_delta", contentIndex, delta, partial: assistant([]) });
}

export function userEnd(text: string): AgentEvent {
	return { type: "message_end", message: { role: "user", content: text, timestamp: 0 } };
}

export function toolStart(id: string, name: string, args: unknown): AgentEvent {
	return { type: "tool_execution_start", toolCallId: id, toolName: name, args };
}

export function toolUpdate(id: string, name: string, text: string, details: unknown = {}): AgentEvent {
	return { type: "tool_execution_update", toolCallId: id, toolName: name, args: {}, partialResult: { content: [{ type: "text", text }], details } };
}

export function toolEnd(id: string, name: string, text: string, isError = false, details: unknown = {}): AgentEvent {
	return { type: "tool_execution_end", toolCallId: id, toolName: name, isError, result: { content: [{ type: "text", text }], details } };
}

export function toolResultMessage(id: string, name: string, text: string, isError = false): AgentEvent[] {
	const message = { role: "toolResult" as const, toolCallId: id, toolName: name, content: [{ type: "text" as const, text }], isError, timestamp: 0 };
	return [
		{ type: "message_start", message },
		{ type: "message_end", message },
	];
}

/** One streamed assistant message: start, one text_delta per chunk, end with the final message. */
export function streamedAssistant(chunks: string[], final: AssistantMessage = assistant(chunks.join(""))): AgentEvent[] {
	return [
		{ type: "message_start", message: assistant([]) },
		update({ type: "text_start", contentIndex: 0, partial: assistant([]) }),
		...chunks.map((chunk) => textDelta(chunk)),
		{ type: "message_end", message: final },
	];
}
