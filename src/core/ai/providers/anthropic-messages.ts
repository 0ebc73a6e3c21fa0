// StreamFn for the Anthropic Messages API through @anthropic-ai/sdk (loaded on first use).
import { randomUUID } from "node:crypto";
import type { AssistantMessageEventStream, Context, Model } from "../llm-types.js";
import { buildAnthropicParams } from "./anthropic-request.js";
import { isRecord, malformed, optionalText, record, text } from "./event-shape.js";
import type { PartialAssistantMessage } from "./partial-message.js";
import { ProviderStreamError } from "./provider-error.js";
import { type FinishReason, type ProviderAttempt, type ProviderStreamOptions, runKeyedProviderStream, sdkClientOptions } from "./provider-run.js";
import { readSseBody } from "./sse-body.js";

/** Usage counts as the events carry them; setUsage keeps only the finite numbers. */
type UsageCounts = Parameters<PartialAssistantMessage["setUsage"]>[0];

export function streamAnthropicMessages(
	model: Model,
	context: Context,
	options: ProviderStreamOptions = {},
): AssistantMessageEventStream {
	return runKeyedProviderStream(model, options, async (apiKey): Promise<ProviderAttempt> => {
		const { default: AnthropicClient, APIError } = await import("@anthropic-ai/sdk");
		const client = new AnthropicClient({ ...sdkClientOptions(model, apiKey, options), openTelemetry: false });
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
				reader.handle(JSON.parse(data));
			});
			return reader.finish();
		};
	});
}

/** A content block's index: a whole number. */
function blockIndex(value: unknown): number {
	if (Number.isInteger(value) && (value as number) >= 0) return value as number;
	throw malformed("index", value, "a whole number");
}

function safeJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** Turns Anthropic stream events into blocks of the partial message; an event of the wrong shape throws. */
class AnthropicEventReader {
	/** Anthropic block index → our content index. */
	private readonly blocks = new Map<number, number>();
	private stopReason: string | null = null;
	private stopped = false;

	constructor(private readonly partial: PartialAssistantMessage) {}

	handle(value: unknown): void {
		const event = record(value, "the event");
		const partial = this.partial;
		switch (event.type) {
			case "message_start": {
				const message = record(event.message, "message");
				const usage = isRecord(message.usage) ? message.usage : {};
				partial.setUsage({
					input: usage.input_tokens ?? 0,
					output: usage.output_tokens ?? 0,
					cacheRead: usage.cache_read_input_tokens ?? 0,
					cacheWrite: usage.cache_creation_input_tokens ?? 0,
				} as UsageCounts);
				break;
			}
			case "content_block_start": {
				const at = blockIndex(event.index);
				const block = record(event.content_block, "content_block");
				if (block.type === "text") {
					const index = partial.startText();
					this.blocks.set(at, index);
					const start = optionalText(block.text, "content_block.text");
					if (start) partial.appendText(index, start);
				} else if (block.type === "thinking") {
					const signature = optionalText(block.signature, "content_block.signature");
					const index = partial.startThinking({ thinkingSignature: signature || undefined });
					this.blocks.set(at, index);
					const start = optionalText(block.thinking, "content_block.thinking");
					if (start) partial.appendThinking(index, start);
				} else if (block.type === "redacted_thinking") {
					this.blocks.set(at, partial.startThinking({ redacted: true, thinkingSignature: optionalText(block.data, "content_block.data") }));
				} else if (block.type === "tool_use") {
					const name = optionalText(block.name, "content_block.name");
					if (!name) throw malformed("content_block.name", block.name, "a tool name");
					const id = optionalText(block.id, "content_block.id") || `toolu_${randomUUID().replace(/-/g, "").slice(0, 24)}`;
					const index = partial.startToolCall(id, name);
					this.blocks.set(at, index);
					// Some servers send the whole input at block start instead of as deltas.
					if (isRecord(block.input) && Object.keys(block.input).length > 0) {
						partial.appendToolArguments(index, JSON.stringify(block.input));
					}
				}
				// Server-side tool blocks (web search...) are not part of this agent's protocol: ignored.
				break;
			}
			case "content_block_delta": {
				const index = this.blocks.get(event.index as number);
				if (index === undefined) break;
				const delta = record(event.delta, "delta");
				if (delta.type === "text_delta") partial.appendText(index, text(delta.text, "delta.text"));
				else if (delta.type === "thinking_delta") partial.appendThinking(index, text(delta.thinking, "delta.thinking"));
				else if (delta.type === "signature_delta") partial.appendSignature(index, text(delta.signature, "delta.signature"));
				else if (delta.type === "input_json_delta") partial.appendToolArguments(index, text(delta.partial_json, "delta.partial_json"));
				break;
			}
			case "content_block_stop": {
				const index = this.blocks.get(event.index as number);
				if (index !== undefined) partial.endBlock(index);
				break;
			}
			case "message_delta": {
				const delta = event.delta === undefined || event.delta === null ? {} : record(event.delta, "delta");
				const stopReason = optionalText(delta.stop_reason, "delta.stop_reason");
				if (stopReason) this.stopReason = stopReason;
				const usage = isRecord(event.usage) ? event.usage : {};
				partial.setUsage({
					output: usage.output_tokens ?? undefined,
					input: usage.input_tokens ?? undefined,
					cacheRead: usage.cache_read_input_tokens ?? undefined,
					cacheWrite: usage.cache_creation_input_tokens ?? undefined,
				} as UsageCounts);
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
