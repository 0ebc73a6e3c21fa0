// StreamFn for the OpenAI Responses API through the `openai` SDK (loaded on first use): output text, reasoning
// summaries as thinking (each reasoning item kept, encrypted, for the next request), function calls streamed by
// output item, usage with cached and reasoning tokens. Message and call item ids are not kept: the next request
// carries the items without them, as OpenAI's own agent does when nothing is stored.
import type OpenAI from "openai";
import { randomUUID } from "node:crypto";
import type { AssistantMessageEventStream, Context, Model, ToolCall, AssistantMessage, ImageContent, Message, TextContent, ThinkingLevel } from "../llm-types.js";
import { isRecord, MalformedEventError, malformed, optionalText, record, text, tokenCount } from "./event-shape.js";
import type { PartialAssistantMessage } from "./partial-message.js";
import { ProviderStreamError } from "./provider-error.js";
import { type FinishReason, type ProviderAttempt, type ProviderStreamOptions, reusedClient, runKeyedProviderStream, sdkClientOptions } from "./provider-run.js";
import { readSseBody } from "./sse-body.js";
import { addSearchQuery, addSource, keepServerBlock, withServerBlocks } from "./server-blocks.js";
import { normalizeOpenAIToolCallId, transformMessages } from "../transform-messages.js";

// Builds an OpenAI Responses request from the core's context. Nothing is stored on OpenAI's side (store: false):
// each request carries the whole conversation, the model's own reasoning included as the encrypted reasoning
// items it returned, so a multi-turn tool run keeps its chain of thought.
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
		params.tools = context.tools.map((tool) =>
			tool.serverTool === "web_search"
				? ({ type: "web_search" } as OpenAI.Responses.Tool)
				: {
						type: "function",
						name: tool.name,
						description: tool.description,
						parameters: tool.parameters as Record<string, unknown>,
						strict: false,
					},
		);
	}
	if (options.maxTokens !== undefined) params.max_output_tokens = options.maxTokens;
	if (options.temperature !== undefined) params.temperature = options.temperature;
	if (model.reasoning) {
		// Without a store, reasoning comes back encrypted, to be sent again with the next request.
		params.include = ["reasoning.encrypted_content"];
		const reasoning = options.reasoning && OPENAI_RESPONSES_REASONING[options.reasoning];
		if (reasoning) params.reasoning = { ...reasoning };
	}
	// Not strict, as for Chat Completions (see openai-completions.ts).
	if (options.outputSchema) {
		params.text = { format: { type: "json_schema", name: options.outputSchema.name, schema: options.outputSchema.schema, strict: false } };
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
	// The web_search_call items go back where they were, as received.
	const items = withServerBlocks<InputItem>(message, "openai-responses", (block) => {
		if (block.type === "thinking") {
			const item = reasoningItem(block.thinkingSignature);
			return item ? [item] : [];
		}
		if (block.type === "text") return [{ role: "assistant", content: block.text }];
		return [{ type: "function_call", call_id: block.id, name: block.name, arguments: JSON.stringify(block.arguments ?? {}) }];
	}, (raw) => raw as InputItem);
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

/** An error the stream reported (an `error` event, `response.failed`), in the shape of the SDK's error body. */
export interface ResponsesStreamFailure {
	message: string;
	type?: string;
	code?: string;
}

export function streamOpenAIResponses(model: Model, context: Context, options: ProviderStreamOptions = {}): AssistantMessageEventStream {
	return runKeyedProviderStream(model, options, async (apiKey): Promise<ProviderAttempt> => {
		const { default: OpenAIClient, APIError } = await import("openai");
		const client = reusedClient("openai", sdkClientOptions(model, apiKey, options), (given) => new OpenAIClient(given));
		const params = buildOpenAIResponsesParams(model, context, options);
		return async ({ signal, partial, touch, fetchOptions }) => {
			// The SDK builds and sends the request and turns an HTTP error status into its APIError; the event
			// stream itself is read by our parser (see sse-parser.ts for why).
			const response = await client.responses.create(params, { signal, fetchOptions }).asResponse();
			touch();
			const reader = new ResponsesEventReader(partial, (failure) => new APIError(undefined, failure, undefined, response.headers));
			await readSseBody(response, "openai-responses", touch, (_event, data) => {
				// Each event is one JSON object named by its `type`; there is no [DONE] (some servers send it).
				if (data === "" || data.startsWith("[DONE]")) return;
				reader.handle(JSON.parse(data));
			});
			return reader.finish();
		};
	});
}

/** Turns Responses stream events into blocks of the partial message; an event of the wrong shape throws. */
class ResponsesEventReader {
	/** Output item index → our content index (a message item's text, a reasoning item's thinking, a call). */
	private readonly items = new Map<number, number>();
	private readonly toolCalls: number[] = [];
	/** Calls whose arguments arrived as deltas (the `done` events then repeat them). */
	private readonly streamedArguments = new Set<number>();
	private status: "completed" | "incomplete" | undefined;
	private incompleteReason: string | undefined;

	constructor(
		private readonly partial: PartialAssistantMessage,
		private readonly streamError: (failure: ResponsesStreamFailure) => Error,
	) {}

	handle(value: unknown): void {
		const event = record(value, "the event");
		const partial = this.partial;
		switch (event.type) {
			case "response.output_item.added":
				this.addItem(outputIndex(event), record(event.item, "item"));
				break;
			case "response.content_part.added": {
				// The first part fills the block its message item started; a later one gets its own.
				const part = record(event.part, "part");
				if (part.type === "output_text" || part.type === "refusal") this.textBlock(outputIndex(event), Number(event.content_index) > 0);
				break;
			}
			case "response.output_text.delta":
			case "response.refusal.delta":
				partial.appendText(this.textBlock(outputIndex(event)), text(event.delta, "delta"));
				break;
			case "response.content_part.done": {
				const index = this.items.get(outputIndex(event));
				if (index !== undefined && partial.message.content[index]?.type === "text") partial.endBlock(index);
				break;
			}
			case "response.reasoning_summary_part.added": {
				// Summary parts of one item read as paragraphs of one thinking block.
				const index = this.thinkingBlock(outputIndex(event));
				if (Number(event.summary_index) > 0) partial.appendThinking(index, "\n\n");
				break;
			}
			case "response.reasoning_summary_text.delta":
			case "response.reasoning_text.delta":
				partial.appendThinking(this.thinkingBlock(outputIndex(event)), text(event.delta, "delta"));
				break;
			case "response.function_call_arguments.delta": {
				const index = this.items.get(outputIndex(event));
				if (index === undefined || partial.message.content[index]?.type !== "toolCall") break;
				this.streamedArguments.add(index);
				partial.appendToolArguments(index, text(event.delta, "delta"));
				break;
			}
			case "response.function_call_arguments.done": {
				const index = this.items.get(outputIndex(event));
				if (index === undefined || partial.message.content[index]?.type !== "toolCall" || this.streamedArguments.has(index)) break;
				this.streamedArguments.add(index);
				partial.appendToolArguments(index, text(event.arguments, "arguments"));
				break;
			}
			case "response.output_item.done":
				this.finishItem(outputIndex(event), record(event.item, "item"));
				break;
			case "response.completed":
			case "response.incomplete": {
				const response = record(event.response, "response");
				this.readUsage(response.usage);
				this.status = event.type === "response.completed" ? "completed" : "incomplete";
				if (isRecord(response.incomplete_details)) this.incompleteReason = optionalText(response.incomplete_details.reason, "response.incomplete_details.reason");
				break;
			}
			case "response.failed": {
				const response = record(event.response, "response");
				// What the failed request used is billed all the same.
				this.readUsage(response.usage);
				const error = isRecord(response.error) ? response.error : {};
				throw this.streamError(failure(error, "The response failed."));
			}
			case "error": {
				// Documented flat ({ code, message }); some servers nest it as { error: { type, code, message } }.
				const error = isRecord(event.error) ? event.error : { code: event.code, message: event.message };
				throw this.streamError(failure(error, "The provider reported an error."));
			}
		}
	}

	finish(): FinishReason {
		if (this.status === undefined) {
			throw new ProviderStreamError(
				"The response stream ended before the response was complete (no response.completed).",
				!this.partial.hasContent,
			);
		}
		for (const index of this.toolCalls) {
			const call = this.partial.message.content[index] as ToolCall;
			if (call.name === "") throw new MalformedEventError(`the function call ${call.id} has no name`);
		}
		if (this.status === "incomplete") {
			if (this.incompleteReason === "content_filter") {
				throw new ProviderStreamError("The provider's content filter stopped the response (incomplete: content_filter).");
			}
			// max_output_tokens, or a reason this version does not know: the answer was cut short.
			return "length";
		}
		return this.toolCalls.length > 0 ? "toolUse" : "stop";
	}

	private addItem(at: number, item: Record<string, unknown>): void {
		const partial = this.partial;
		if (item.type === "message") {
			this.textBlock(at, true);
		} else if (item.type === "reasoning") {
			this.thinkingBlock(at);
		} else if (item.type === "function_call") {
			this.closeOpenText();
			const callId = optionalText(item.call_id, "item.call_id") || `call_${randomUUID().replace(/-/g, "").slice(0, 24)}`;
			const index = partial.startToolCall(callId, optionalText(item.name, "item.name") ?? "");
			this.items.set(at, index);
			this.toolCalls.push(index);
			const args = optionalText(item.arguments, "item.arguments");
			if (args) {
				this.streamedArguments.add(index);
				partial.appendToolArguments(index, args);
			}
		}
		// Server-side tools (web search, file search...) are not part of this agent's protocol: ignored.
	}

	private finishItem(at: number, item: Record<string, unknown>): void {
		const partial = this.partial;
		const index = this.items.get(at);
		if (item.type === "reasoning") {
			const thinking = this.thinkingBlock(at);
			// A server that sends the summary only here: its text still shows.
			const block = partial.message.content[thinking];
			const summary = Array.isArray(item.summary) ? item.summary : [];
			const summaryText = summary.flatMap((part) => (isRecord(part) && typeof part.text === "string" ? [part.text] : [])).join("\n\n");
			if (block?.type === "thinking" && block.thinking === "" && summaryText !== "") partial.appendThinking(thinking, summaryText);
			// The whole item, encrypted content included, goes back with the next request to this model.
			partial.setSignature(thinking, JSON.stringify(item));
			if (block?.type === "thinking" && block.thinking === "") block.redacted = true;
			partial.endBlock(thinking);
		} else if (item.type === "function_call" && index !== undefined) {
			const call = partial.message.content[index] as ToolCall;
			partial.patchToolCall(index, { name: optionalText(item.name, "item.name") });
			const args = optionalText(item.arguments, "item.arguments");
			if (!this.streamedArguments.has(index) && args) partial.appendToolArguments(index, args);
			if (call.name === "") throw malformed("item.name", item.name, "a function name");
			partial.endBlock(index);
		} else if (item.type === "message" && index !== undefined) {
			// url_citation annotations: the pages the answer cites.
			const annotations = (Array.isArray(item.content) ? item.content : []).flatMap((part) => (isRecord(part) && Array.isArray(part.annotations) ? part.annotations : []));
			const block = partial.message.content[index];
			if (annotations.length > 0 && block?.type === "text") block.citations = annotations;
			for (const annotation of annotations) if (isRecord(annotation) && annotation.type === "url_citation") addSource(partial.message, annotation.url, annotation.title);
			partial.endBlock(index);
		} else if (item.type === "web_search_call") {
			this.closeOpenText();
			keepServerBlock(partial.message, "openai-responses", item);
			const action = isRecord(item.action) ? item.action : {};
			addSearchQuery(partial.message, action.query);
			for (const source of Array.isArray(action.sources) ? action.sources : []) if (isRecord(source)) addSource(partial.message, source.url, source.title);
		}
	}

	/** The text block of a message item, started (after closing others) when `fresh` or none is open. */
	private textBlock(at: number, fresh = false): number {
		const current = this.items.get(at);
		if (!fresh && current !== undefined && this.partial.isOpen(current) && this.partial.message.content[current]?.type === "text") return current;
		if (current !== undefined) this.partial.endBlock(current);
		this.closeOpenText();
		const index = this.partial.startText();
		this.items.set(at, index);
		return index;
	}

	/** The thinking block of a reasoning item, started on first use. */
	private thinkingBlock(at: number): number {
		const current = this.items.get(at);
		if (current !== undefined && this.partial.message.content[current]?.type === "thinking") return current;
		this.closeOpenText();
		const index = this.partial.startThinking();
		this.items.set(at, index);
		return index;
	}

	/** Text blocks of earlier items still open (a server that skipped their done events). */
	private closeOpenText(): void {
		for (const index of this.items.values()) {
			if (this.partial.isOpen(index) && this.partial.message.content[index]?.type === "text") this.partial.endBlock(index);
		}
	}

	private readUsage(value: unknown): void {
		if (!isRecord(value)) return;
		const input = isRecord(value.input_tokens_details) ? value.input_tokens_details : {};
		const output = isRecord(value.output_tokens_details) ? value.output_tokens_details : {};
		const cached = tokenCount(input.cached_tokens);
		this.partial.setUsage({
			// input_tokens includes the cached part; ours counts it separately.
			input: Math.max(0, tokenCount(value.input_tokens) - cached),
			output: tokenCount(value.output_tokens),
			cacheRead: cached,
			reasoning: tokenCount(output.reasoning_tokens),
		});
	}
}

function outputIndex(event: Record<string, unknown>): number {
	const value = event.output_index;
	if (Number.isInteger(value) && (value as number) >= 0) return value as number;
	throw malformed("output_index", value, "a whole number");
}


function failure(error: Record<string, unknown>, fallback: string): ResponsesStreamFailure {
	const code = typeof error.code === "string" && error.code !== "" ? error.code : undefined;
	const type = typeof error.type === "string" && error.type !== "" ? error.type : code;
	const message = typeof error.message === "string" && error.message !== "" ? error.message : fallback;
	return { message, ...(type ? { type } : {}), ...(code ? { code } : {}) };
}
