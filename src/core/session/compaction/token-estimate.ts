// Context accounting: how many tokens the next request will carry, from reported usage plus estimates.
import type { AgentMessage } from "../../engine/index.js";
import type { AssistantMessage, ImageContent, TextContent, Tool, Usage } from "../../ai/index.js";
import { compactionSummaryToUser, isCompactionSummary } from "./summary-message.js";

/** The usual rule of thumb for English text and code; deliberately a little pessimistic. */
export const CHARS_PER_TOKEN = 4;
/** A fixed cost per image: providers charge roughly 1,000–1,600 tokens for a typical screenshot. */
export const IMAGE_TOKENS = 1200;

function charsToTokens(chars: number): number {
	return Math.ceil(chars / CHARS_PER_TOKEN);
}

function partsTokens(content: string | readonly (TextContent | ImageContent)[]): number {
	if (typeof content === "string") return charsToTokens(content.length);
	let chars = 0;
	let images = 0;
	for (const part of content) {
		if (part.type === "text") chars += part.text.length;
		else if (part.type === "image") images++;
	}
	return charsToTokens(chars) + images * IMAGE_TOKENS;
}

/** Estimated tokens of one message as a provider would count it (text, thinking, tool call arguments, images). */
export function estimateTokens(message: AgentMessage): number {
	const role = (message as { role?: string }).role;
	if (role === "assistant") {
		let chars = 0;
		for (const part of (message as AssistantMessage).content) {
			if (part.type === "text") chars += part.text.length;
			else if (part.type === "thinking") chars += part.thinking.length + (part.redacted ? (part.thinkingSignature?.length ?? 0) : 0);
			else if (part.type === "toolCall") chars += part.name.length + JSON.stringify(part.arguments ?? {}).length;
		}
		return charsToTokens(chars);
	}
	if (isCompactionSummary(message)) return partsTokens(compactionSummaryToUser(message).content);
	// user, toolResult, and app-defined roles that carry content the same way.
	const content = (message as { content?: unknown }).content;
	if (typeof content === "string" || Array.isArray(content)) return partsTokens(content as TextContent[]);
	return 0;
}

/** Tokens a provider reported for the whole request and answer of this message. */
function usageTokens(usage: Usage): number {
	return usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

export interface ContextEstimate {
	/** What the next request will carry, about. */
	tokens: number;
	/** The part taken from the provider's report (0 when no usable report exists). */
	reportedTokens: number;
	/** The part estimated from characters: messages after the report (or all of them). */
	estimatedTokens: number;
	/** Index of the assistant message whose usage was used, if any. */
	usageIndex?: number;
}

export interface ContextEstimateOptions {
	/** Counted only when no usage report exists (a report already includes them). */
	systemPrompt?: string;
	tools?: readonly Tool[];
}

/**
 * The last answer's reported usage (input + output + cache read + cache write, i.e. everything that request
 * carried plus the answer) and an estimate for every message after it. Reports are skipped when they cannot
 * speak for the current context: failed or aborted answers (usage often 0), and answers older than a
 * compaction summary (they measured the context before it was compacted).
 */
export function estimateContextBreakdown(messages: readonly AgentMessage[], options: ContextEstimateOptions = {}): ContextEstimate {
	const summaryTime = latestSummaryTime(messages);
	let usageIndex: number | undefined;
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i]!;
		if ((message as { role?: string }).role !== "assistant") continue;
		const assistant = message as AssistantMessage;
		if (assistant.stopReason === "error" || assistant.stopReason === "aborted") continue;
		if (!assistant.usage || usageTokens(assistant.usage) <= 0) continue;
		if (summaryTime !== undefined && assistant.timestamp < summaryTime) break;
		usageIndex = i;
		break;
	}
	let estimatedTokens = 0;
	for (let i = (usageIndex ?? -1) + 1; i < messages.length; i++) estimatedTokens += estimateTokens(messages[i]!);
	let reportedTokens = 0;
	if (usageIndex !== undefined) {
		reportedTokens = usageTokens((messages[usageIndex] as AssistantMessage).usage);
	} else {
		if (options.systemPrompt) estimatedTokens += charsToTokens(options.systemPrompt.length);
		for (const tool of options.tools ?? []) {
			estimatedTokens += charsToTokens(tool.name.length + tool.description.length + JSON.stringify(tool.parameters).length);
		}
	}
	return { tokens: reportedTokens + estimatedTokens, reportedTokens, estimatedTokens, usageIndex };
}

/** What the next request will carry, about: see estimateContextBreakdown. */
export function estimateContextTokens(messages: readonly AgentMessage[], options?: ContextEstimateOptions): number {
	return estimateContextBreakdown(messages, options).tokens;
}

/** For the footer: tokens and percent of the model's window (undefined percent when the window is unknown). */
export function contextUsage(
	messages: readonly AgentMessage[],
	contextWindow: number,
	options?: ContextEstimateOptions,
): { tokens: number; contextWindow: number; percent: number | undefined } {
	const tokens = estimateContextTokens(messages, options);
	const percent = contextWindow > 0 ? Math.round((tokens / contextWindow) * 1000) / 10 : undefined;
	return { tokens, contextWindow, percent };
}

function latestSummaryTime(messages: readonly AgentMessage[]): number | undefined {
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i]!;
		if (isCompactionSummary(message)) return message.timestamp;
	}
	return undefined;
}
