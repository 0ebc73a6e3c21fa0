// Asks the model for the summary: one plain request, no tools, no side effects. And the ways a compaction can end
// without a summary (CompactionError); the session turns them into compaction_end events.
import type { AgentMessage } from "../../engine/index.js";
import { errorMessage, redactSecrets } from "../../lib/index.js";
import type { AssistantMessage, Context, Model, StreamFn, StreamOptions } from "../../ai/index.js";
import { textFromContent, userMessage } from "../../ai/index.js";
import { SUMMARY_SYSTEM_PROMPT, buildSummaryPrompt } from "./summary-prompt.js";
import { CHARS_PER_TOKEN } from "./token-estimate.js";

export interface GenerateSummaryOptions {
	/** The provider call; the real one is `streamModel` from src/core/llm. */
	streamFn: StreamFn;
	apiKey?: string;
	signal?: AbortSignal;
	/** The last compaction's summary: the new one builds on it. */
	previousSummary?: string;
	/** From `/compact <instructions>`. */
	customInstructions?: string;
	/** Output budget of the summary (default: the model's maxTokens, at most 8,192 and a quarter of the window). */
	maxTokens?: number;
	/** Further options for the request (retries, onRetry, idle timeout, headers); the fields above win. */
	streamOptions?: StreamOptions;
}

/** System prompt, format rules and lead-ins, with room to spare. */
const PROMPT_OVERHEAD_TOKENS = 1000;
const DEFAULT_SUMMARY_MAX_TOKENS = 8192;

function summaryMaxTokens(model: Pick<Model, "maxTokens" | "contextWindow">, requested?: number): number {
	let tokens = requested ?? Math.min(model.maxTokens > 0 ? model.maxTokens : DEFAULT_SUMMARY_MAX_TOKENS, DEFAULT_SUMMARY_MAX_TOKENS);
	if (model.contextWindow > 0) tokens = Math.min(tokens, Math.max(256, Math.floor(model.contextWindow / 4)));
	return tokens;
}

/** How many characters of conversation fit in the summariser's window beside the rest of the request. */
function conversationBudgetChars(model: Model, maxTokens: number, previousSummary: string | undefined): number | undefined {
	if (!(model.contextWindow > 0)) return undefined;
	const tokens = model.contextWindow - maxTokens - PROMPT_OVERHEAD_TOKENS;
	return Math.max(2000, Math.floor(tokens * CHARS_PER_TOKEN * 0.9) - (previousSummary?.length ?? 0));
}

/**
 * Returns the summary text of `messages` (building on `previousSummary`). Throws a CompactionError: "aborted"
 * when the signal fires, "summary_failed" with the provider's (key-redacted) reason otherwise.
 */
export async function generateSummary(model: Model, messages: readonly AgentMessage[], options: GenerateSummaryOptions): Promise<string> {
	const { signal } = options;
	if (signal?.aborted) throw compactionAborted();
	const maxTokens = summaryMaxTokens(model, options.maxTokens);
	const prompt = buildSummaryPrompt(messages, options.previousSummary, options.customInstructions, {
		maxChars: conversationBudgetChars(model, maxTokens, options.previousSummary),
	});
	const context: Context = { systemPrompt: SUMMARY_SYSTEM_PROMPT, messages: [userMessage(prompt)] };

	let answer: AssistantMessage;
	try {
		const stream = await options.streamFn(model, context, { ...options.streamOptions, apiKey: options.apiKey, signal, maxTokens });
		answer = await stream.result();
	} catch (error) {
		// A StreamFn should never throw, but a broken one must not escape as anything but a compaction error.
		if (signal?.aborted) throw compactionAborted();
		throw failed(errorMessage(error), options.apiKey);
	}
	if (answer.stopReason === "aborted" || signal?.aborted) throw compactionAborted();
	if (answer.stopReason === "error") throw failed(answer.errorMessage ?? "the provider returned an error", options.apiKey);

	const summary = textFromContent(answer.content, { separator: "" }).trim();
	if (summary === "") {
		const why = answer.stopReason === "length" ? " (it ran out of output tokens before writing any)" : "";
		throw new CompactionError("summary_failed", `Compaction failed: the model returned an empty summary${why}.`);
	}
	return summary;
}

function failed(reason: string, apiKey: string | undefined): CompactionError {
	return new CompactionError("summary_failed", `Compaction failed: the model could not summarise the conversation: ${redactSecrets(reason, apiKey)}`);
}

export type CompactionErrorCode =
	/** The signal fired: nothing was changed. */
	| "aborted"
	/** The conversation is already within the recent part kept verbatim. */
	| "nothing_to_compact"
	/** The provider failed or returned no summary. */
	| "summary_failed";

export class CompactionError extends Error {
	constructor(
		readonly code: CompactionErrorCode,
		message: string,
	) {
		super(message);
		this.name = "CompactionError";
	}
}

export function isCompactionAborted(error: unknown): boolean {
	return error instanceof CompactionError && error.code === "aborted";
}

export function compactionAborted(): CompactionError {
	return new CompactionError("aborted", "Compaction aborted; the session is unchanged.");
}
