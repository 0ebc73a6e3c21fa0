// StreamFn for OpenAI-compatible Chat Completions through the `openai` SDK (loaded on first use).
// Tolerant of the many compatible servers: missing ids, missing usage, reasoning in
// `reasoning_content` or `reasoning`, tool-call deltas in any order (assembled by index).
import { randomUUID } from "node:crypto";
import type { AssistantMessageEventStream, Context, Model, ToolCall } from "../llm-types.js";
import { textFromContent } from "../messages.js";
import { isRecord, MalformedEventError, malformed, optionalText, record, text, tokenCount } from "./event-shape.js";
import { buildOpenAIParams } from "./openai-request.js";
import type { PartialAssistantMessage } from "./partial-message.js";
import { ProviderStreamError } from "./provider-error.js";
import { type FinishReason, type ProviderAttempt, type ProviderStreamOptions, runKeyedProviderStream, sdkClientOptions } from "./provider-run.js";
import { readSseBody } from "./sse-body.js";

export function streamOpenAICompletions(
	model: Model,
	context: Context,
	options: ProviderStreamOptions = {},
): AssistantMessageEventStream {
	return runKeyedProviderStream(model, options, async (apiKey): Promise<ProviderAttempt> => {
		const { default: OpenAIClient, APIError } = await import("openai");
		const client = new OpenAIClient(sdkClientOptions(model, apiKey, options));
		const params = buildOpenAIParams(model, context, options);
		return async ({ signal, partial, touch }) => {
			// The SDK builds and sends the request and turns an HTTP error status into its APIError;
			// the event stream itself is read by our parser (see sse-parser.ts for why).
			const response = await client.chat.completions.create(params, { signal }).asResponse();
			touch();
			const reader = new OpenAIChunkReader(partial);
			let done = false;
			await readSseBody(response, touch, (_event, data) => {
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
