// The messages loom itself builds (a user prompt and a file inlined in one, an assistant message that is empty
// or reports a failure, the stream an assistant message arrives in), the text read back out of a message's content,
// and token usage with its price: every assistant message carries usage.cost computed from the model's prices.
import { EventStream } from "./event-stream.js";
import type { AssistantMessage, AssistantMessageEvent, AssistantMessageEventStream, ImageContent, Model, Usage, UserMessage } from "./llm-types.js";

/** How a prompt is sent besides its text: images after it, and what the user typed when the text stands for more. */
export interface PromptOptions {
	images?: readonly ImageContent[];
	/** Kept only when it differs from the text (see UserMessage.typed). */
	typed?: string;
}

/** A user message; with images, its content is the text followed by the images. */
export function userMessage(text: string, images?: readonly ImageContent[], typed?: string): UserMessage {
	const content = images && images.length > 0 ? [{ type: "text" as const, text }, ...images] : text;
	// `typed` first: a session file's head, read for a preview, reaches it before a long content.
	return typed !== undefined && typed !== text ? { role: "user", typed, content, timestamp: Date.now() } : { role: "user", content, timestamp: Date.now() };
}

/** A file's text inlined in a prompt (an @file argument, a file an editor attached), as the model reads it. */
export function inlinedFile(name: string, text: string): string {
	return `<file name="${name}">\n${text}\n</file>`;
}

/** An assistant message from `model` with no content and no usage yet (stopReason "stop" until told otherwise). */
export function emptyAssistantMessage(model: Pick<Model, "api" | "provider" | "id">): AssistantMessage {
	return {
		role: "assistant",
		content: [],
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: emptyUsage(),
		stopReason: "stop",
		timestamp: Date.now(),
	};
}

/**
 * An assistant message that ends a request or run in failure. It keeps what `partial` had already received
 * (content, usage, origin, time); without one it is an empty message from `model`.
 */
export function errorAssistantMessage(
	model: Pick<Model, "api" | "provider" | "id">,
	errorMessage: string,
	options: { aborted?: boolean; partial?: AssistantMessage } = {},
): AssistantMessage {
	const base = options.partial ?? emptyAssistantMessage(model);
	return { ...base, stopReason: options.aborted ? "aborted" : "error", errorMessage };
}

/** How `textFromContent` joins a content list's blocks and whether images show. */
export interface ContentTextOptions {
	/** Put between the blocks' texts; a newline unless given. */
	separator?: string;
	/** What an image block reads as; without it images are left out. */
	image?: (image: ImageContent) => string;
	/** Leave out blocks that read as nothing (an empty text block), rather than joining them too. */
	dropEmpty?: boolean;
}

/**
 * The text of a message's (or tool result's) content: a string is the text itself; a list gives its text blocks
 * (and images, when `options.image` says how they read) joined by the separator, empty blocks included unless
 * `options.dropEmpty` says otherwise. Anything
 * else, and any block that is not well formed, gives nothing, so content read from a file or a server is safe.
 */
export function textFromContent(content: unknown, options: ContentTextOptions = {}): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	const parts: string[] = [];
	for (const block of content as unknown[]) {
		if (typeof block !== "object" || block === null) continue;
		const { type, text } = block as { type?: unknown; text?: unknown };
		if (type === "text" && typeof text === "string") parts.push(text);
		else if (type === "image" && options.image) parts.push(options.image(block as ImageContent));
	}
	return (options.dropEmpty ? parts.filter((part) => part !== "") : parts).join(options.separator ?? "\n");
}

/** The answer an assistant message gives: its text blocks, joined as they were streamed. */
export function answerText(message: AssistantMessage): string {
	return textFromContent(message.content, { separator: "" });
}

/** The stream a provider fills: it completes with the message of its `done` or `error` event. */
export function createAssistantMessageEventStream(): AssistantMessageEventStream {
	return new EventStream<AssistantMessageEvent, AssistantMessage>(
		(event) => event.type === "done" || event.type === "error",
		(event) => {
			if (event.type === "done") return event.message;
			if (event.type === "error") return event.error;
			throw new Error("Unexpected completing event");
		},
	);
}

/** Usage with every counter and price at zero. */
export function emptyUsage(): Usage {
	return {
		input: 0,
		output: 0,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: 0,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
}

/** Computes `usage.cost` (US dollars) from the model's per-million-token prices; stores it and returns it. */
export function calculateCost(model: Pick<Model, "cost">, usage: Usage): Usage["cost"] {
	const perToken = (pricePerMillion: number, tokens: number) => (pricePerMillion * tokens) / 1_000_000;
	const cost = {
		input: perToken(model.cost.input, usage.input),
		output: perToken(model.cost.output, usage.output),
		cacheRead: perToken(model.cost.cacheRead, usage.cacheRead),
		cacheWrite: perToken(model.cost.cacheWrite, usage.cacheWrite),
		total: 0,
	};
	cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
	usage.cost = cost;
	return cost;
}

/** Sets totalTokens and cost from the four counters. */
export function finalizeUsage(model: Pick<Model, "cost">, usage: Usage): Usage {
	usage.totalTokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
	calculateCost(model, usage);
	return usage;
}
