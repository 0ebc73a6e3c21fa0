// Builds an OpenAI-compatible Chat Completions request from the core's context.
import type OpenAI from "openai";
import type { Context, ImageContent, Message, Model, TextContent, ThinkingLevel } from "../llm-types.js";
import type { ProviderStreamOptions } from "./provider-run.js";
import { normalizeOpenAIToolCallId, transformMessages } from "../transform-messages.js";

type Params = OpenAI.Chat.ChatCompletionCreateParamsStreaming;
type MessageParam = OpenAI.Chat.ChatCompletionMessageParam;
type ContentPart = OpenAI.Chat.ChatCompletionContentPartText | OpenAI.Chat.ChatCompletionContentPartImage;

/** What each thinking level asks of a reasoning model (reasoning_effort); "off" asks nothing. */
export const OPENAI_REASONING_EFFORT: Readonly<Record<ThinkingLevel, "low" | "medium" | "high" | undefined>> = {
	off: undefined,
	low: "low",
	medium: "medium",
	high: "high",
};

export function buildOpenAIParams(model: Model, context: Context, options: ProviderStreamOptions = {}): Params {
	const messages: MessageParam[] = [];
	if (context.systemPrompt) messages.push({ role: "system", content: context.systemPrompt });
	messages.push(
		...convertMessages(transformMessages(context.messages, model, { normalizeToolCallId: normalizeOpenAIToolCallId })),
	);

	const params: Params = {
		model: model.id,
		messages,
		stream: true,
		// Usage arrives in a last chunk only when asked for; servers that ignore it simply send none.
		stream_options: { include_usage: true },
	};
	if (context.tools?.length) {
		params.tools = context.tools.map((tool) => ({
			type: "function",
			function: { name: tool.name, description: tool.description, parameters: tool.parameters as Record<string, unknown> },
		}));
	}
	if (options.maxTokens !== undefined) {
		// OpenAI itself wants max_completion_tokens; most compatible servers still read max_tokens.
		if (model.provider === "openai") params.max_completion_tokens = options.maxTokens;
		else params.max_tokens = options.maxTokens;
	}
	if (options.temperature !== undefined) params.temperature = options.temperature;
	const effort = options.reasoning && OPENAI_REASONING_EFFORT[options.reasoning];
	if (model.reasoning && effort) params.reasoning_effort = effort;
	return params;
}

function convertMessages(messages: Message[]): MessageParam[] {
	const out: MessageParam[] = [];
	// Tool messages cannot carry images: they follow the batch of results as one user message.
	let pendingImages: ContentPart[] = [];
	const flushImages = () => {
		if (pendingImages.length === 0) return;
		out.push({ role: "user", content: [{ type: "text", text: "Images returned by the tool calls above:" }, ...pendingImages] });
		pendingImages = [];
	};

	for (const message of messages) {
		if (message.role !== "toolResult") flushImages();
		if (message.role === "user") {
			if (typeof message.content === "string") {
				if (message.content.trim() !== "") out.push({ role: "user", content: message.content });
			} else {
				const parts = convertParts(message.content);
				if (parts.length > 0) out.push({ role: "user", content: parts });
			}
		} else if (message.role === "assistant") {
			const text = message.content
				.filter((block): block is TextContent => block.type === "text")
				.map((block) => block.text)
				.join("");
			const toolCalls = message.content.flatMap((block) =>
				block.type === "toolCall"
					? [{ id: block.id, type: "function" as const, function: { name: block.name, arguments: JSON.stringify(block.arguments ?? {}) } }]
					: [],
			);
			// Own reasoning has no place in a chat request; cross-provider thinking was turned into text already.
			if (text === "" && toolCalls.length === 0) continue;
			const assistant: OpenAI.Chat.ChatCompletionAssistantMessageParam = { role: "assistant", content: text === "" ? null : text };
			if (toolCalls.length > 0) assistant.tool_calls = toolCalls;
			out.push(assistant);
		} else {
			const text = message.content
				.filter((block): block is TextContent => block.type === "text")
				.map((block) => block.text)
				.join("\n");
			out.push({ role: "tool", tool_call_id: message.toolCallId, content: text === "" ? "(no output)" : text });
			pendingImages.push(...convertParts(message.content.filter((block): block is ImageContent => block.type === "image")));
		}
	}
	flushImages();
	return out;
}

function convertParts(blocks: (TextContent | ImageContent)[]): ContentPart[] {
	return blocks.flatMap((block): ContentPart[] => {
		if (block.type === "text") return block.text === "" ? [] : [{ type: "text", text: block.text }];
		return [{ type: "image_url", image_url: { url: `data:${block.mimeType};base64,${block.data}` } }];
	});
}
