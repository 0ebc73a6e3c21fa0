// StreamFn for OpenAI-compatible Chat Completions through the `openai` SDK (loaded on first use).
// Tolerant of the many compatible servers: missing ids, missing usage, reasoning in
// `reasoning_content` or `reasoning`, tool-call deltas in any order (assembled by index).
import type OpenAI from "openai";
import { randomUUID } from "node:crypto";
import type { AssistantMessageEventStream, Context, Model, ToolCall, ImageContent, Message, TextContent, ThinkingLevel } from "../llm-types.js";
import { textFromContent } from "../messages.js";
import { isRecord, MalformedEventError, malformed, optionalText, record, text, tokenCount } from "./event-shape.js";
import type { PartialAssistantMessage } from "./partial-message.js";
import { ProviderStreamError } from "./provider-error.js";
import { type FinishReason, type ProviderAttempt, type ProviderStreamOptions, reusedClient, runKeyedProviderStream, sdkClientOptions } from "./provider-run.js";
import { readSseBody } from "./sse-body.js";
import { normalizeOpenAIToolCallId, transformMessages } from "../transform-messages.js";

// Builds an OpenAI-compatible Chat Completions request from the core's context.
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
	// Not strict: strict mode refuses schemas with optional properties, and the answer is validated anyway.
	if (options.outputSchema) {
		params.response_format = { type: "json_schema", json_schema: { name: options.outputSchema.name, schema: options.outputSchema.schema, strict: false } };
	}
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

export function streamOpenAICompletions(
	model: Model,
	context: Context,
	options: ProviderStreamOptions = {},
): AssistantMessageEventStream {
	return runKeyedProviderStream(model, options, async (apiKey): Promise<ProviderAttempt> => {
		const { default: OpenAIClient, APIError } = await import("openai");
		const client = reusedClient("openai", sdkClientOptions(model, apiKey, options), (given) => new OpenAIClient(given));
		const params = buildOpenAIParams(model, context, options);
		return async ({ signal, partial, touch, fetchOptions }) => {
			// The SDK builds and sends the request and turns an HTTP error status into its APIError;
			// the event stream itself is read by our parser (see sse-parser.ts for why).
			const response = await client.chat.completions.create(params, { signal, fetchOptions }).asResponse();
			touch();
			const reader = new OpenAIChunkReader(partial);
			let done = false;
			await readSseBody(response, "openai-completions", touch, (_event, data) => {
				// Like the SDK: nothing after [DONE] counts, every other event is a JSON chunk.
				if (done) return;
				if (data.startsWith("[DONE]")) {
					done = true;
					return;
				}
				const chunk: unknown = JSON.parse(data);
				if (isRecord(chunk) && chunk.error) throw new APIError(undefined, chunk.error as object, undefined, response.headers);
				reader.handle(chunk);
			});
			return reader.finish();
		};
	});
}

/** Fields that carry thinking, by server: the first one present is read. */
const REASONING_FIELDS = ["reasoning_content", "reasoning", "reasoning_text"] as const;

/** Assembles chat-completion chunks into blocks of the partial message; a chunk of the wrong shape throws. */
class OpenAIChunkReader {
	private textIndex: number | undefined;
	private thinkingIndex: number | undefined;
	/** OpenAI tool_calls[].index → our content index. */
	private readonly toolCalls = new Map<number, number>();
	private finishReason: string | null = null;

	constructor(private readonly partial: PartialAssistantMessage) {}

	handle(value: unknown): void {
		const chunk = record(value, "the chunk");
		if (isRecord(chunk.usage)) this.readUsage(chunk.usage);
		const choices = chunk.choices;
		if (choices === undefined || choices === null) return;
		if (!Array.isArray(choices)) throw malformed("choices", choices, "a list");
		if (choices.length === 0) return;
		const choice = record(choices[0], "choices[0]");
		const delta = choice.delta === undefined || choice.delta === null ? {} : record(choice.delta, "choices[0].delta");

		for (const field of REASONING_FIELDS) {
			if (delta[field] === undefined || delta[field] === null) continue;
			const reasoning = text(delta[field], `choices[0].delta.${field}`);
			if (reasoning !== "") this.appendThinking(reasoning);
			break;
		}
		const content = contentText(delta.content, "choices[0].delta.content");
		if (content) this.appendText(content);
		const calls = delta.tool_calls;
		if (calls !== undefined && calls !== null) {
			if (!Array.isArray(calls)) throw malformed("choices[0].delta.tool_calls", calls, "a list");
			for (let i = 0; i < calls.length; i++) this.readToolCall(calls[i], `choices[0].delta.tool_calls[${i}]`);
		}
		const finishReason = optionalText(choice.finish_reason, "choices[0].finish_reason");
		if (finishReason) this.finishReason = finishReason;
	}

	finish(): FinishReason {
		if (this.finishReason === null) {
			throw new ProviderStreamError(
				"The response stream ended before the model finished (no finish_reason).",
				!this.partial.hasContent,
			);
		}
		for (const index of this.toolCalls.values()) {
			const call = this.partial.message.content[index] as ToolCall;
			if (call.name === "") throw new MalformedEventError(`the tool call ${call.id} has no name`);
		}
		if (this.finishReason === "content_filter") {
			throw new ProviderStreamError("The provider's content filter stopped the response (finish_reason: content_filter).");
		}
		if (this.finishReason === "length") return "length";
		// Some servers say "stop" even when the turn ends in tool calls; the calls decide.
		if (this.toolCalls.size > 0 || this.finishReason === "tool_calls" || this.finishReason === "function_call") return "toolUse";
		return "stop";
	}

	private appendText(text: string): void {
		if (this.textIndex === undefined || !this.partial.isOpen(this.textIndex)) {
			this.closeThinking();
			this.textIndex = this.partial.startText();
		}
		this.partial.appendText(this.textIndex, text);
	}

	private appendThinking(text: string): void {
		if (this.thinkingIndex === undefined || !this.partial.isOpen(this.thinkingIndex)) {
			this.closeText();
			this.thinkingIndex = this.partial.startThinking();
		}
		this.partial.appendThinking(this.thinkingIndex, text);
	}

	private readToolCall(value: unknown, path: string): void {
		const call = record(value, path);
		// A server that sends one call at a time may leave the index out.
		const key = call.index ?? 0;
		if (!Number.isInteger(key) || (key as number) < 0) throw malformed(`${path}.index`, key, "a whole number");
		const id = optionalText(call.id, `${path}.id`);
		const fn = call.function === undefined || call.function === null ? {} : record(call.function, `${path}.function`);
		const name = optionalText(fn.name, `${path}.function.name`);
		// Some servers send the arguments as an object instead of JSON text.
		const args = isRecord(fn.arguments) ? JSON.stringify(fn.arguments) : optionalText(fn.arguments, `${path}.function.arguments`);

		let index = this.toolCalls.get(key as number);
		if (index === undefined) {
			this.closeText();
			this.closeThinking();
			index = this.partial.startToolCall(id || `call_${randomUUID().replace(/-/g, "").slice(0, 24)}`, name ?? "");
			this.toolCalls.set(key as number, index);
		} else {
			this.partial.patchToolCall(index, { id, name });
		}
		if (args) this.partial.appendToolArguments(index, args);
	}

	private closeText(): void {
		if (this.textIndex !== undefined) this.partial.endBlock(this.textIndex);
	}

	private closeThinking(): void {
		if (this.thinkingIndex !== undefined) this.partial.endBlock(this.thinkingIndex);
	}

	private readUsage(usage: Record<string, unknown>): void {
		const details = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
		const cached = tokenCount(details.cached_tokens);
		const completion = isRecord(usage.completion_tokens_details) ? usage.completion_tokens_details : undefined;
		this.partial.setUsage({
			// prompt_tokens includes the cached part; ours counts it separately.
			input: Math.max(0, tokenCount(usage.prompt_tokens) - cached),
			output: tokenCount(usage.completion_tokens),
			cacheRead: cached,
			// Servers that say nothing of reasoning leave it out.
			...(completion && completion.reasoning_tokens !== undefined ? { reasoning: tokenCount(completion.reasoning_tokens) } : {}),
		});
	}
}

/** Content is text; some servers send a list of parts instead, whose text parts are read. */
function contentText(value: unknown, path: string): string | undefined {
	if (!Array.isArray(value)) return optionalText(value, path);
	return textFromContent(value, { separator: "" });
}
