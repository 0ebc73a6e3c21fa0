// Builds an OpenAI Responses request from the core's context. Nothing is stored on OpenAI's side (store: false):
// each request carries the whole conversation, the model's own reasoning included as the encrypted reasoning
// items it returned, so a multi-turn tool run keeps its chain of thought.
import type OpenAI from "openai";
import type { AssistantMessage, Context, ImageContent, Message, Model, TextContent, ThinkingLevel } from "../llm-types.js";
import type { ProviderStreamOptions } from "./provider-run.js";
import { normalizeOpenAIToolCallId, transformMessages } from "../transform-messages.js";

type Params = OpenAI.Responses.ResponseCreateParamsStreaming;
type InputItem = OpenAI.Responses.ResponseInputItem;
type InputContent = OpenAI.Responses.ResponseInputText | OpenAI.Responses.ResponseInputImage;

/** What each thinking level asks of a reasoning model; "off" asks nothing (the model's default effort, no summaries). */
export const OPENAI_RESPONSES_REASONING: Readonly<Record<ThinkingLevel, OpenAI.Reasoning | undefined>> = {
	off: undefined,
	low: { effort: "low", summary: "auto" },
	medium: { effort: "medium", summary: "auto" },
	high: { effort: "high", summary: "auto" },
};

export function buildOpenAIResponsesParams(model: Model, context: Context, options: ProviderStreamOptions = {}): Params {
	const messages = transformMessages(context.messages, model, { normalizeToolCallId: normalizeOpenAIToolCallId });
	const params: Params = { model: model.id, input: convertMessages(messages), stream: true, store: false };
	if (context.systemPrompt) params.instructions = context.systemPrompt;
	if (context.tools?.length) {
		params.tools = context.tools.map((tool) => ({
			type: "function",
			name: tool.name,
			description: tool.description,
			parameters: tool.parameters as Record<string, unknown>,
			strict: false,
		}));
	}
	if (options.maxTokens !== undefined) params.max_output_tokens = options.maxTokens;
	if (options.temperature !== undefined) params.temperature = options.temperature;
	if (model.reasoning) {
		// Without a store, reasoning comes back encrypted, to be sent again with the next request.
		params.include = ["reasoning.encrypted_content"];
		const reasoning = options.reasoning && OPENAI_RESPONSES_REASONING[options.reasoning];
		if (reasoning) params.reasoning = { ...reasoning };
	}
	return params;
}

function convertMessages(messages: Message[]): InputItem[] {
	const input: InputItem[] = [];
	for (const message of messages) {
		if (message.role === "user") {
			if (typeof message.content === "string") {
				if (message.content.trim() !== "") input.push({ role: "user", content: message.content });
			} else {
				const content = convertParts(message.content);
				if (content.length > 0) input.push({ role: "user", content });
			}
		} else if (message.role === "assistant") {
			input.push(...convertAssistant(message));
		} else {
			const text = message.content
				.filter((block): block is TextContent => block.type === "text")
				.map((block) => block.text)
				.join("\n");
			const images = message.content.filter((block): block is ImageContent => block.type === "image");
			const output = images.length === 0 ? text || "(no output)" : convertParts([{ type: "text", text: text || "(no output)" }, ...images]);
			input.push({ type: "function_call_output", call_id: message.toolCallId, output });
		}
	}
	return input;
}

/**
 * The items of an assistant turn, in order: reasoning items (own model only: transformMessages made another
 * model's thinking text), messages, function calls.
 */
function convertAssistant(message: AssistantMessage): InputItem[] {
	const items: InputItem[] = [];
	for (const block of message.content) {
		if (block.type === "thinking") {
			const item = reasoningItem(block.thinkingSignature);
			if (item) items.push(item);
		} else if (block.type === "text") {
			items.push({ role: "assistant", content: block.text });
		} else {
			items.push({ type: "function_call", call_id: block.id, name: block.name, arguments: JSON.stringify(block.arguments ?? {}) });
		}
	}
	// A reasoning item must be followed by the output it led to; one that led to nothing (a cut-off answer) goes.
	while (items.at(-1)?.type === "reasoning") items.pop();
	return items;
}

/** The reasoning item kept in a thinking block's signature, when it holds one. */
function reasoningItem(signature: string | undefined): OpenAI.Responses.ResponseReasoningItem | undefined {
	if (!signature) return undefined;
	try {
		const item = JSON.parse(signature);
		return item && typeof item === "object" && item.type === "reasoning" && typeof item.id === "string" ? item : undefined;
	} catch {
		return undefined;
	}
}

function convertParts(blocks: (TextContent | ImageContent)[]): InputContent[] {
	return blocks.flatMap((block): InputContent[] => {
		if (block.type === "text") return block.text === "" ? [] : [{ type: "input_text", text: block.text }];
		return [{ type: "input_image", image_url: `data:${block.mimeType};base64,${block.data}`, detail: "auto" }];
	});
}
