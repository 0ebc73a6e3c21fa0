// StreamFn for the Anthropic Messages API through @anthropic-ai/sdk (loaded on first use).
import type Anthropic from "@anthropic-ai/sdk";
import type { AssistantMessageEventStream, Context, Model } from "../llm-types.js";
import { providerApiKey } from "./api-keys.js";
import { buildAnthropicParams } from "./anthropic-request.js";
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

type StreamEvent = Anthropic.RawMessageStreamEvent;

export function streamAnthropicMessages(
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
			const { default: AnthropicClient, APIError } = await import("@anthropic-ai/sdk");
			const client = new AnthropicClient({ ...sdkClientOptions(model, key.apiKey, options), openTelemetry: false });
			const params = buildAnthropicParams(model, context, options);
			return async ({ signal, partial, touch }) => {
				// client.post rather than messages.create: the latter console.warn()s about deprecated models,
				// which would tear through the interactive screen. The SDK builds and sends the request and turns
				// an HTTP error status into its APIError; the event stream is read by our parser (see sse-parser.ts).
				const response = await client.post("/v1/messages", { body: params, stream: true, signal }).asResponse();
				touch();
				const reader = new AnthropicEventReader(partial);
				await readSseBody(response, touch, (event, data) => {
					// Like the SDK: keep-alive pings and unnamed events are skipped, `error` events throw.
					if (event === undefined || event === "ping") return;
					if (event === "error") {
						const body = safeJson(data) ?? data;
						const type = typeof body === "object" ? (body as { error?: { type?: string } }).error?.type : undefined;
						throw new APIError(undefined, body as object, undefined, response.headers, type as ConstructorParameters<typeof APIError>[4]);
					}
					if (data === "") return;
					reader.handle(JSON.parse(data) as StreamEvent);
				});
				return reader.finish();
			};
		},
	});
}

function safeJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** Turns Anthropic stream events into blocks of the partial message. */
class AnthropicEventReader {
	/** Anthropic block index → our content index. */
	private readonly blocks = new Map<number, number>();
	private stopReason: string | null = null;
	private stopped = false;

	constructor(private readonly partial: PartialAssistantMessage) {}

	handle(event: StreamEvent): void {
		const partial = this.partial;
		switch (event.type) {
			case "message_start": {
				const usage = event.message.usage;
				partial.setUsage({
					input: usage.input_tokens ?? 0,
					output: usage.output_tokens ?? 0,
					cacheRead: usage.cache_read_input_tokens ?? 0,
					cacheWrite: usage.cache_creation_input_tokens ?? 0,
				});
				break;
			}
			case "content_block_start": {
				const block = event.content_block;
				if (block.type === "text") {
					const index = partial.startText();
					this.blocks.set(event.index, index);
					if (block.text) partial.appendText(index, block.text);
				} else if (block.type === "thinking") {
					const index = partial.startThinking({ thinkingSignature: block.signature || undefined });
					this.blocks.set(event.index, index);
					if (block.thinking) partial.appendThinking(index, block.thinking);
				} else if (block.type === "redacted_thinking") {
					this.blocks.set(event.index, partial.startThinking({ redacted: true, thinkingSignature: block.data }));
				} else if (block.type === "tool_use") {
					const index = partial.startToolCall(block.id, block.name);
					this.blocks.set(event.index, index);
					// Some servers send the whole input at block start instead of as deltas.
					if (block.input && typeof block.input === "object" && Object.keys(block.input).length > 0) {
						partial.appendToolArguments(index, JSON.stringify(block.input));
					}
				}
				// Server-side tool blocks (web search...) are not part of this agent's protocol: ignored.
				break;
			}
			case "content_block_delta": {
				const index = this.blocks.get(event.index);
				if (index === undefined) break;
				const delta = event.delta;
				if (delta.type === "text_delta") partial.appendText(index, delta.text);
				else if (delta.type === "thinking_delta") partial.appendThinking(index, delta.thinking);
				else if (delta.type === "signature_delta") partial.appendSignature(index, delta.signature);
				else if (delta.type === "input_json_delta") partial.appendToolArguments(index, delta.partial_json);
				break;
			}
			case "content_block_stop": {
				const index = this.blocks.get(event.index);
				if (index !== undefined) partial.endBlock(index);
				break;
			}
			case "message_delta": {
				if (event.delta.stop_reason) this.stopReason = event.delta.stop_reason;
				const usage = event.usage;
				partial.setUsage({
					output: usage.output_tokens ?? undefined,
					input: usage.input_tokens ?? undefined,
					cacheRead: usage.cache_read_input_tokens ?? undefined,
					cacheWrite: usage.cache_creation_input_tokens ?? undefined,
				});
				break;
			}
			case "message_stop":
				this.stopped = true;
				break;
		}
	}

	finish(): FinishReason {
		if (!this.stopped) {
			// The body ended cleanly but early (a proxy cut it): as retryable as a dropped connection.
			throw new ProviderStreamError(
				"The response stream ended before the message was complete (no message_stop).",
				!this.partial.hasContent,
			);
		}
		switch (this.stopReason) {
			case "max_tokens":
				return "length";
			case "tool_use":
				return "toolUse";
			case "model_context_window_exceeded":
				// The conversation filled the context window: an error the session layer can answer by compacting.
				throw new ProviderStreamError(
					"model_context_window_exceeded: the conversation exceeds the model's context window (prompt is too long).",
				);
			default:
				// end_turn, stop_sequence, pause_turn, refusal (its explanation is in the text, if any).
				return "stop";
		}
	}
}
