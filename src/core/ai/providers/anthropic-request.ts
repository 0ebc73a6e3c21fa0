// Builds an Anthropic Messages request from the core's context: messages, system prompt and tools,
// prompt-caching breakpoints, and thinking settings per model generation.
import type Anthropic from "@anthropic-ai/sdk";
import type { Context, ImageContent, Message, Model, TextContent, ThinkingLevel } from "../llm-types.js";
import type { ProviderStreamOptions } from "./provider-run.js";
import { normalizeAnthropicToolCallId, transformMessages } from "../transform-messages.js";

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
		params.tools = context.tools.map((tool) => ({
			name: tool.name,
			description: tool.description,
			input_schema: tool.parameters as unknown as Anthropic.Tool["input_schema"],
		}));
	}

	const thinking = thinkingSettings(model, options.reasoning, maxTokens);
	if (thinking.thinking) params.thinking = thinking.thinking;
	if (thinking.effort) params.output_config = { effort: thinking.effort };
	if (thinking.maxTokens !== maxTokens) params.max_tokens = maxTokens = thinking.maxTokens;
	// options.temperature is not sent: this API version has no sampling parameters (current models reject them).
	return params;
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
			const content: ContentBlockParam[] = [];
			for (const block of message.content) {
				if (block.type === "text") {
					if (block.text.trim() !== "") content.push({ type: "text", text: block.text });
				} else if (block.type === "thinking") {
					if (block.redacted && block.thinkingSignature) {
						content.push({ type: "redacted_thinking", data: block.thinkingSignature });
					} else if (block.thinkingSignature) {
						content.push({ type: "thinking", thinking: block.thinking, signature: block.thinkingSignature });
					} else if (block.thinking.trim() !== "") {
						// Without a signature the API would reject the block; keep the words as text.
						content.push({ type: "text", text: block.thinking });
					}
				} else {
					content.push({ type: "tool_use", id: block.id, name: block.name, input: block.arguments ?? {} });
				}
			}
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
