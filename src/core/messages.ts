// The messages loom itself builds: a user prompt (and a file inlined in one), and an assistant message that is
// empty or reports a failure.
import type { AssistantMessage, ImageContent, Model, UserMessage } from "./llm-types.js";
import { emptyUsage } from "./llm/usage.js";

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
