// StreamFn for the Anthropic Messages API through @anthropic-ai/sdk (loaded on first use).
import type Anthropic from "@anthropic-ai/sdk";
import { randomUUID } from "node:crypto";
import type { AssistantMessageEventStream, Context, Model, ImageContent, Message, TextContent, ThinkingLevel } from "../llm-types.js";
import { isRecord, malformed, optionalText, record, text } from "./event-shape.js";
import type { PartialAssistantMessage } from "./partial-message.js";
import { ProviderStreamError } from "./provider-error.js";
import { type FinishReason, type ProviderAttempt, type ProviderStreamOptions, reusedClient, runKeyedProviderStream, sdkClientOptions } from "./provider-run.js";
import { readSseBody } from "./sse-body.js";
import { addSearchQuery, addSource, keepServerBlock, withServerBlocks } from "./server-blocks.js";
import { normalizeAnthropicToolCallId, transformMessages } from "../transform-messages.js";

// Builds an Anthropic Messages request from the core's context: messages, system prompt and tools,
// prompt-caching breakpoints, and thinking settings per model generation.
type Params = Anthropic.MessageCreateParamsStreaming;
type MessageParam = Anthropic.MessageParam;
type ContentBlockParam = Anthropic.ContentBlockParam;

const CACHE = { type: "ephemeral" } as const;

/** What each thinking level asks of Claude: an effort (adaptive thinking) or a token budget (older models). */
export const ANTHROPIC_THINKING: Readonly<Record<ThinkingLevel, { effort: "low" | "medium" | "high"; budgetTokens: number } | undefined>> = {
	off: undefined,
	low: { effort: "low", budgetTokens: 2048 },
	medium: { effort: "medium", budgetTokens: 8192 },
	high: { effort: "high", budgetTokens: 24576 },
};

export function buildAnthropicParams(model: Model, context: Context, options: ProviderStreamOptions = {}): Params {
	const messages = convertMessages(transformMessages(context.messages, model, { normalizeToolCallId: normalizeAnthropicToolCallId }));
	addCacheBreakpoint(messages);
	let maxTokens = options.maxTokens ?? model.maxTokens;
	const params: Params = { model: model.id, max_tokens: maxTokens, messages, stream: true };

	if (context.systemPrompt) {
		params.system = [{ type: "text", text: context.systemPrompt, cache_control: CACHE }];
	}
	if (context.tools?.length) {
		params.tools = context.tools.map((tool) =>
			tool.serverTool === "web_search"
				? ({ type: "web_search_20250305", name: "web_search", max_uses: 5 } as Anthropic.WebSearchTool20250305)
				: {
						name: tool.name,
						description: tool.description,
						input_schema: tool.parameters as unknown as Anthropic.Tool["input_schema"],
					},
		);
	}

	const thinking = thinkingSettings(model, options.reasoning, maxTokens);
	if (thinking.thinking) params.thinking = thinking.thinking;
	if (options.outputSchema) {
		params.tools = [...(params.tools ?? []), outputTool(options.outputSchema.schema)];
		// Thinking allows only tool_choice auto; otherwise every turn calls a tool, the answer being the output tool.
		const thinks = thinking.thinking !== undefined && thinking.thinking.type !== "disabled";
		params.tool_choice = thinks ? { type: "auto" } : { type: "any" };
	}
	if (thinking.effort) params.output_config = { effort: thinking.effort };
	if (thinking.maxTokens !== maxTokens) params.max_tokens = maxTokens = thinking.maxTokens;
	// options.temperature is not sent: this API version has no sampling parameters (current models reject them).
	return params;
}

/**
 * The tool Claude gives its final answer through when an output schema is asked for: its input is the answer,
 * which the reader turns back into the message's text (the agent never sees a call). A tool's input is an object,
 * so a schema of another type is wrapped as { value: … } and unwrapped again.
 */
export const OUTPUT_TOOL = "structured_output";

function outputTool(schema: Record<string, unknown>): Anthropic.Tool {
	const wrapped = schema.type !== "object";
	return {
		name: OUTPUT_TOOL,
		description: "Give your final answer through this tool, once the task is done: its input is the answer, valid against the schema.",
		input_schema: (wrapped ? { type: "object", properties: { value: schema }, required: ["value"] } : schema) as Anthropic.Tool["input_schema"],
	};
}

/** The answer an output tool call's input stands for: the input's JSON, or its `value` when the schema was wrapped. */
function outputToolAnswer(json: string, wrapped: boolean): string {
	if (!wrapped) return json;
	try {
		return JSON.stringify((JSON.parse(json) as { value?: unknown }).value ?? null);
	} catch {
		return json;
	}
}

/** How a model generation takes thinking: adaptive with an effort (4.6 and later) or a token budget. */
export function anthropicThinkingStyle(modelId: string): { mode: "adaptive" | "budget"; canDisable: boolean } {
	const match = /claude-(opus|sonnet|haiku|fable|mythos)-(\d+)(?:-(\d))?(?![\d])/.exec(modelId);
	if (!match) return { mode: "budget", canDisable: true };
	const family = match[1]!;
	const version = Number(match[2]) + Number(match[3] ?? 0) / 10;
	if (family === "fable" || family === "mythos") return { mode: "adaptive", canDisable: false };
	if (version < 4.6) return { mode: "budget", canDisable: true };
	// Always-on adaptive thinking: these reject { type: "disabled" }.
	const alwaysOn = (family === "opus" && version >= 5.5) || (family === "sonnet" && version >= 5.5);
	return { mode: "adaptive", canDisable: !alwaysOn };
}

function thinkingSettings(
	model: Model,
	level: ThinkingLevel | undefined,
	maxTokens: number,
): { thinking?: Anthropic.ThinkingConfigParam; effort?: "low" | "medium" | "high"; maxTokens: number } {
	if (!model.reasoning || level === undefined) return { maxTokens };
	const style = anthropicThinkingStyle(model.id);
	const setting = ANTHROPIC_THINKING[level];
	if (!setting) {
		// Budget models think only when asked; always-on models keep their default.
		return style.mode === "adaptive" && style.canDisable ? { thinking: { type: "disabled" }, maxTokens } : { maxTokens };
	}
	if (style.mode === "adaptive") {
		return { thinking: { type: "adaptive", display: "summarized" }, effort: setting.effort, maxTokens };
	}
	const budget = setting.budgetTokens;
	// budget_tokens must stay below max_tokens, with room left for the answer.
	const needed = Math.min(model.maxTokens, budget + 4096);
	const total = Math.max(maxTokens, needed);
	return { thinking: { type: "enabled", budget_tokens: Math.max(1024, Math.min(budget, total - 1024)) }, maxTokens: total };
}

function convertMessages(messages: Message[]): MessageParam[] {
	const out: MessageParam[] = [];
	for (const message of messages) {
		if (message.role === "user") {
			const content = typeof message.content === "string" ? message.content : convertUserBlocks(message.content);
			if (content.length === 0 || (typeof content === "string" && content.trim() === "")) continue;
			out.push({ role: "user", content });
		} else if (message.role === "assistant") {
			// The web search's server_tool_use and web_search_tool_result blocks go back where they were, as received.
			const content = withServerBlocks<ContentBlockParam>(message, "anthropic-messages", (block) => {
				if (block.type === "text") {
					if (block.text.trim() === "") return [];
					return [block.citations ? ({ type: "text", text: block.text, citations: block.citations } as ContentBlockParam) : { type: "text", text: block.text }];
				}
				if (block.type === "thinking") {
					if (block.redacted && block.thinkingSignature) return [{ type: "redacted_thinking", data: block.thinkingSignature }];
					if (block.thinkingSignature) return [{ type: "thinking", thinking: block.thinking, signature: block.thinkingSignature }];
					// Without a signature the API would reject the block; keep the words as text.
					return block.thinking.trim() !== "" ? [{ type: "text", text: block.thinking }] : [];
				}
				return [{ type: "tool_use", id: block.id, name: block.name, input: block.arguments ?? {} }];
			}, (raw) => raw as ContentBlockParam);
			if (content.length > 0) out.push({ role: "assistant", content });
		} else {
			const blocks = convertUserBlocks(message.content);
			const result: Anthropic.ToolResultBlockParam = {
				type: "tool_result",
				tool_use_id: message.toolCallId,
				is_error: message.isError,
			};
			if (blocks.length > 0) result.content = blocks as Anthropic.ToolResultBlockParam["content"];
			// Results of one batch travel together in a single user message, right after the tool_use turn.
			const last = out[out.length - 1];
			if (last?.role === "user" && Array.isArray(last.content) && last.content.every((b) => b.type === "tool_result")) {
				last.content.push(result);
			} else {
				out.push({ role: "user", content: [result] });
			}
		}
	}
	return out;
}

function convertUserBlocks(blocks: (TextContent | ImageContent)[]): (Anthropic.TextBlockParam | Anthropic.ImageBlockParam)[] {
	const out: (Anthropic.TextBlockParam | Anthropic.ImageBlockParam)[] = [];
	for (const block of blocks) {
		if (block.type === "text") {
			if (block.text !== "") out.push({ type: "text", text: block.text });
		} else {
			out.push({
				type: "image",
				source: { type: "base64", media_type: block.mimeType as Anthropic.Base64ImageSource["media_type"], data: block.data },
			});
		}
	}
	return out;
}

/** Marks the end of the last user turn so the whole conversation prefix is cached for the next call. */
function addCacheBreakpoint(messages: MessageParam[]): void {
	const last = messages[messages.length - 1];
	if (!last || last.role !== "user") return;
	if (typeof last.content === "string") {
		last.content = [{ type: "text", text: last.content, cache_control: CACHE }];
		return;
	}
	const block = last.content[last.content.length - 1];
	if (block && (block.type === "text" || block.type === "image" || block.type === "tool_result")) {
		block.cache_control = CACHE;
	}
}

/** Usage counts as the events carry them; setUsage keeps only the finite numbers. */
type UsageCounts = Parameters<PartialAssistantMessage["setUsage"]>[0];

export function streamAnthropicMessages(
	model: Model,
	context: Context,
	options: ProviderStreamOptions = {},
): AssistantMessageEventStream {
	return runKeyedProviderStream(model, options, async (apiKey): Promise<ProviderAttempt> => {
		const { default: AnthropicClient, APIError } = await import("@anthropic-ai/sdk");
		const client = reusedClient("anthropic", { ...sdkClientOptions(model, apiKey, options), openTelemetry: false as const }, (given) => new AnthropicClient(given));
		const params = buildAnthropicParams(model, context, options);
		return async ({ signal, partial, touch, fetchOptions }) => {
			// client.post rather than messages.create: the latter console.warn()s about deprecated models,
			// which would tear through the interactive screen. The SDK builds and sends the request and turns
			// an HTTP error status into its APIError; the event stream is read by our parser (see sse-parser.ts).
			const response = await client.post("/v1/messages", { body: params, stream: true, signal, fetchOptions }).asResponse();
			touch();
			const reader = new AnthropicEventReader(partial, options.outputSchema && { wrapped: options.outputSchema.schema.type !== "object" });
			await readSseBody(response, "anthropic-messages", touch, (event, data) => {
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
	/** Anthropic block index → a server tool block still receiving its input, and that input's JSON so far. */
	private readonly serverInputs = new Map<number, { raw: Record<string, unknown>; json: string }>();
	private stopReason: string | null = null;
	private stopped = false;
	/** Anthropic block index → the output tool's input JSON so far (see OUTPUT_TOOL). */
	private readonly outputBlocks = new Map<number, string>();
	private otherToolCalls = 0;

	constructor(
		private readonly partial: PartialAssistantMessage,
		/** Set when an output schema was asked for: the output tool's calls are the answer's text. */
		private readonly output?: { wrapped: boolean },
	) {}

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
					if (this.output && name === OUTPUT_TOOL) {
						this.outputBlocks.set(at, isRecord(block.input) && Object.keys(block.input).length > 0 ? JSON.stringify(block.input) : "");
						break;
					}
					this.otherToolCalls++;
					const id = optionalText(block.id, "content_block.id") || `toolu_${randomUUID().replace(/-/g, "").slice(0, 24)}`;
					const index = partial.startToolCall(id, name);
					this.blocks.set(at, index);
					// Some servers send the whole input at block start instead of as deltas.
					if (isRecord(block.input) && Object.keys(block.input).length > 0) {
						partial.appendToolArguments(index, JSON.stringify(block.input));
					}
				}
				else if (block.type === "server_tool_use" || block.type === "web_search_tool_result") {
					// The provider's own tool: kept as received, to go back in its place; its pages are the answer's sources.
					const raw = { ...block };
					keepServerBlock(partial.message, "anthropic-messages", raw);
					if (block.type === "server_tool_use") this.serverInputs.set(at, { raw, json: "" });
					if (Array.isArray(block.content)) for (const result of block.content) if (isRecord(result)) addSource(partial.message, result.url, result.title);
				}
				break;
			}
			case "content_block_delta": {
				const server = this.serverInputs.get(event.index as number);
				if (server) {
					const delta = record(event.delta, "delta");
					if (delta.type === "input_json_delta") server.json += text(delta.partial_json, "delta.partial_json");
					break;
				}
				const output = this.outputBlocks.get(event.index as number);
				if (output !== undefined) {
					const delta = record(event.delta, "delta");
					if (delta.type === "input_json_delta") this.outputBlocks.set(event.index as number, output + text(delta.partial_json, "delta.partial_json"));
					break;
				}
				const index = this.blocks.get(event.index as number);
				if (index === undefined) break;
				const delta = record(event.delta, "delta");
				if (delta.type === "citations_delta" && isRecord(delta.citation)) {
					const block = partial.message.content[index];
					if (block?.type === "text") (block.citations ??= []).push(delta.citation);
					addSource(partial.message, delta.citation.url, delta.citation.title);
					break;
				}
				if (delta.type === "text_delta") partial.appendText(index, text(delta.text, "delta.text"));
				else if (delta.type === "thinking_delta") partial.appendThinking(index, text(delta.thinking, "delta.thinking"));
				else if (delta.type === "signature_delta") partial.appendSignature(index, text(delta.signature, "delta.signature"));
				else if (delta.type === "input_json_delta") partial.appendToolArguments(index, text(delta.partial_json, "delta.partial_json"));
				break;
			}
			case "content_block_stop": {
				const server = this.serverInputs.get(event.index as number);
				if (server) {
					this.serverInputs.delete(event.index as number);
					if (server.json.trim() !== "") server.raw.input = safeJson(server.json) ?? server.raw.input;
					if (isRecord(server.raw.input)) addSearchQuery(partial.message, server.raw.input.query);
					break;
				}
				const output = this.outputBlocks.get(event.index as number);
				if (output !== undefined) {
					const index = partial.startText();
					partial.appendText(index, outputToolAnswer(output || "{}", this.output!.wrapped));
					partial.endBlock(index);
					this.outputBlocks.delete(event.index as number);
					break;
				}
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
				// Only the output tool was called: the answer is given, the run is over.
				return this.output && this.otherToolCalls === 0 ? "stop" : "toolUse";
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
