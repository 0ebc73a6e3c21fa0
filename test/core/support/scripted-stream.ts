// In-process StreamFn doubles for loop tests: each model call plays the next scripted assistant message.
import {
	type AssistantMessage,
	type AssistantMessageEvent,
	type Context,
	createAssistantMessageEventStream,
	emptyUsage,
	type Model,
	type StreamFn,
	type StreamOptions,
	type ToolCall,
} from "../../../src/core/index.js";

export const mockModel: Model = {
	id: "mock",
	name: "mock",
	api: "openai-completions",
	provider: "mock",
	baseUrl: "http://127.0.0.1:1",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 8192,
	maxTokens: 2048,
};

export function assistant(
	content: AssistantMessage["content"],
	stopReason: AssistantMessage["stopReason"] = "stop",
): AssistantMessage {
	return {
		role: "assistant",
		content,
		api: mockModel.api,
		provider: mockModel.provider,
		model: mockModel.id,
		usage: emptyUsage(),
		stopReason,
		timestamp: Date.now(),
	};
}

export function call(id: string, name: string, args: Record<string, any> = {}): ToolCall {
	return { type: "toolCall", id, name, arguments: args };
}

export function text(value: string) {
	return { type: "text" as const, text: value };
}

export type Turn = AssistantMessage | ((context: Context, options: StreamOptions | undefined) => AssistantMessage);

export interface ScriptedStream {
	streamFn: StreamFn;
	/** What each model call was given, in call order. */
	contexts: Context[];
	options: (StreamOptions | undefined)[];
}

/**
 * Plays each turn as a realistic event sequence (start, text deltas, tool call events, done/error).
 * After the script runs out, answers "done".
 */
export function scriptedStream(turns: Turn[]): ScriptedStream {
	const contexts: Context[] = [];
	const options: (StreamOptions | undefined)[] = [];
	const streamFn: StreamFn = (_model, context, streamOptions) => {
		contexts.push({ ...context, messages: [...context.messages] });
		options.push(streamOptions);
		const turn = turns[contexts.length - 1] ?? assistant([text("done")]);
		const message = typeof turn === "function" ? turn(context, streamOptions) : turn;
		const stream = createAssistantMessageEventStream();
		queueMicrotask(() => {
			for (const event of eventsFor(message)) stream.push(event);
		});
		return stream;
	};
	return { streamFn, contexts, options };
}

function eventsFor(message: AssistantMessage): AssistantMessageEvent[] {
	const partial: AssistantMessage = { ...message, content: [] };
	const events: AssistantMessageEvent[] = [{ type: "start", partial: { ...partial } }];
	message.content.forEach((block, contentIndex) => {
		partial.content = message.content.slice(0, contentIndex + 1);
		const snapshot = { ...partial };
		if (block.type === "text") {
			events.push({ type: "text_start", contentIndex, partial: snapshot });
			events.push({ type: "text_delta", contentIndex, delta: block.text, partial: snapshot });
			events.push({ type: "text_end", contentIndex, content: block.text, partial: snapshot });
		} else if (block.type === "toolCall") {
			events.push({ type: "toolcall_start", contentIndex, partial: snapshot });
			events.push({ type: "toolcall_end", contentIndex, toolCall: block, partial: snapshot });
		}
	});
	if (message.stopReason === "error" || message.stopReason === "aborted") {
		events.push({ type: "error", reason: message.stopReason, error: message });
	} else {
		events.push({ type: "done", reason: message.stopReason, message });
	}
	return events;
}

export function deferred<T = void>() {
	let resolve!: (value: T) => void;
	let reject!: (error: unknown) => void;
	const promise = new Promise<T>((res, rej) => {
		resolve = res;
		reject = rej;
	});
	return { promise, resolve, reject };
}
