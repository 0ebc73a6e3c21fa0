// Message and entry builders for compaction tests.
import type { AgentMessage, AssistantMessage, ToolCall, ToolResultMessage, Usage, UserMessage } from "../../../../src/core/index.js";
import type { SessionEntry } from "../../../../src/core/session/store/session-entries.js";

let clock = 1_700_000_000_000;
/** Strictly increasing timestamps, like a real conversation. */
export function tick(): number {
	clock += 1000;
	return clock;
}

export function usage(input = 0, output = 0, cacheRead = 0, cacheWrite = 0): Usage {
	return {
		input,
		output,
		cacheRead,
		cacheWrite,
		totalTokens: input + output + cacheRead + cacheWrite,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
}

export function user(text: string): UserMessage {
	return { role: "user", content: text, timestamp: tick() };
}

export function assistant(text: string, calls: ToolCall[] = [], reported: Usage = usage()): AssistantMessage {
	return {
		role: "assistant",
		content: [...(text ? [{ type: "text" as const, text }] : []), ...calls],
		api: "openai-completions",
		provider: "test",
		model: "test-model",
		usage: reported,
		stopReason: calls.length > 0 ? "toolUse" : "stop",
		timestamp: tick(),
	};
}

export function call(id: string, name: string, args: Record<string, unknown>): ToolCall {
	return { type: "toolCall", id, name, arguments: args };
}

export function result(toolCallId: string, toolName: string, text: string, isError = false): ToolResultMessage {
	return { role: "toolResult", toolCallId, toolName, content: [{ type: "text", text }], isError, timestamp: tick() };
}

/** Wraps messages as session entries (ids e1, e2, …) the way the store writes them. */
export function asEntries(messages: AgentMessage[], startId = 1): SessionEntry[] {
	return messages.map((message, index) => ({
		type: "message",
		id: `e${startId + index}`,
		parentId: index === 0 && startId === 1 ? null : `e${startId + index - 1}`,
		timestamp: new Date(message.timestamp).toISOString(),
		n: startId + index,
		message,
	}));
}

/** A deterministic PRNG (mulberry32), so "random" conversations are the same on every run. */
export function prng(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/**
 * A coding conversation: user prompts, each followed by a few assistant turns making one to three tool calls
 * (read/edit/bash) with results of varied size, then a final answer.
 */
export function conversation(seed: number, prompts: number): AgentMessage[] {
	const random = prng(seed);
	const size = (max: number) => "x".repeat(1 + Math.floor(random() * max));
	const messages: AgentMessage[] = [];
	let callId = 0;
	for (let p = 0; p < prompts; p++) {
		messages.push(user(`prompt ${p}: ${size(400)}`));
		const turns = Math.floor(random() * 4);
		for (let t = 0; t < turns; t++) {
			const calls = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
				const name = ["read", "edit", "bash"][Math.floor(random() * 3)]!;
				return call(`c${++callId}`, name, { path: `src/file-${callId}.ts`, command: size(80) });
			});
			messages.push(assistant(random() < 0.5 ? size(200) : "", calls));
			for (const c of calls) messages.push(result(c.id, c.name, size(3000)));
		}
		messages.push(assistant(`answer ${p}: ${size(600)}`));
	}
	return messages;
}
