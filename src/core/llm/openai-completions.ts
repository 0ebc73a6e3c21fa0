// StreamFn for OpenAI-compatible Chat Completions through the `openai` SDK (loaded on first use).
// Tolerant of the many compatible servers: missing ids, missing usage, reasoning in
// `reasoning_content` or `reasoning`, tool-call deltas in any order (assembled by index).
import { randomUUID } from "node:crypto";
import type OpenAI from "openai";
import type { AssistantMessageEventStream, Context, Model } from "../llm-types.js";
import { providerApiKey } from "./api-keys.js";
import { buildOpenAIParams } from "./openai-request.js";
import type { PartialAssistantMessage } from "./partial-message.js";
import { ProviderStreamError } from "./provider-error.js";
import {
	type FinishReason,
	type ProviderAttempt,
	type ProviderStreamOptions,
	runProviderStream,
	sdkClientOptions,
} from "./provider-run.js";
import { readSseBody } from "./sse-body.js";

type Chunk = OpenAI.Chat.ChatCompletionChunk;

export function streamOpenAICompletions(
	model: Model,
	context: Context,
	options: ProviderStreamOptions = {},
): AssistantMessageEventStream {
	const key = providerApiKey(model, options.apiKey);
	return runProviderStream({
		model,
		options,
		apiKey: key.apiKey,
		async prepare(): Promise<ProviderAttempt> {
			if (!key.apiKey) throw new ProviderStreamError(key.missingMessage);
			const { default: OpenAIClient, APIError } = await import("openai");
			const client = new OpenAIClient(sdkClientOptions(model, key.apiKey, options));
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
					const chunk = JSON.parse(data) as Chunk & { error?: unknown };
					if (chunk?.error) throw new APIError(undefined, chunk.error as object, undefined, response.headers);
					reader.handle(chunk);
				});
				return reader.finish();
			};
		},
	});
}

/** Assembles chat-completion chunks into blocks of the partial message. */
class OpenAIChunkReader {
	private textIndex: number | undefined;
	private thinkingIndex: number | undefined;
	/** OpenAI tool_calls[].index → our content index. */
	private readonly toolCalls = new Map<number, number>();
	private finishReason: string | null = null;

	constructor(private readonly partial: PartialAssistantMessage) {}

	handle(chunk: Chunk): void {
		if (chunk.usage) this.readUsage(chunk.usage);
		const choice = chunk.choices?.[0];
		if (!choice) return;
		const delta = (choice.delta ?? {}) as Chunk["choices"][number]["delta"] & Record<string, unknown>;

		const reasoning = delta.reasoning_content ?? delta.reasoning ?? delta.reasoning_text;
		if (typeof reasoning === "string" && reasoning !== "") this.appendThinking(reasoning);
		if (typeof delta.content === "string" && delta.content !== "") this.appendText(delta.content);
		for (const call of delta.tool_calls ?? []) this.readToolCall(call);
		if (choice.finish_reason) this.finishReason = choice.finish_reason;
	}

	finish(): FinishReason {
		if (this.finishReason === null) {
			throw new ProviderStreamError(
				"The response stream ended before the model finished (no finish_reason).",
				!this.partial.hasContent,
			);
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

	private readToolCall(call: NonNullable<Chunk["choices"][number]["delta"]["tool_calls"]>[number]): void {
		const key = call.index ?? 0;
		let index = this.toolCalls.get(key);
		if (index === undefined) {
			this.closeText();
			this.closeThinking();
			index = this.partial.startToolCall(call.id || `call_${randomUUID().replace(/-/g, "").slice(0, 24)}`, call.function?.name ?? "");
			this.toolCalls.set(key, index);
		} else {
			this.partial.patchToolCall(index, { id: call.id, name: call.function?.name });
		}
		if (call.function?.arguments) this.partial.appendToolArguments(index, call.function.arguments);
	}

	private closeText(): void {
		if (this.textIndex !== undefined) this.partial.endBlock(this.textIndex);
	}

	private closeThinking(): void {
		if (this.thinkingIndex !== undefined) this.partial.endBlock(this.thinkingIndex);
	}

	private readUsage(usage: NonNullable<Chunk["usage"]>): void {
		const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
		this.partial.setUsage({
			// prompt_tokens includes the cached part; ours counts it separately.
			input: Math.max(0, (usage.prompt_tokens ?? 0) - cached),
			output: usage.completion_tokens ?? 0,
			cacheRead: cached,
		});
	}
}
