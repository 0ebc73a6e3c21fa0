// One compaction, start to end, without writing anything: the session appends the result as a compaction entry.
import type { AgentMessage } from "../../engine/index.js";
import type { Model, StreamFn, StreamOptions } from "../../ai/index.js";
import { type CompactionEntry, latestTodos, type SessionEntry, TODO_HEADING, todoListText } from "../store/index.js";
import { CompactionError, compactionAborted } from "./generate-summary.js";
import { type CompactionSettings, effectiveKeepRecentTokens, resolveCompactionSettings } from "./compaction-settings.js";
import { buildCompactedContext } from "./compacted-context.js";
import { findCutPoint } from "./cut-point.js";
import { collectFileOperations, type FileEffectTool, formatFileLists, splitFileLists } from "./file-operations.js";
import { generateSummary } from "./generate-summary.js";
import { estimateContextTokens } from "./token-estimate.js";

export interface CompactOptions {
	/** The session's entries, as in the file (never modified). */
	entries: readonly SessionEntry[];
	/** The model that writes the summary (the session's current model). */
	model: Model;
	streamFn: StreamFn;
	settings?: Partial<CompactionSettings>;
	apiKey?: string;
	signal?: AbortSignal;
	/** Further options for the summary request (retries, onRetry, idle timeout, headers). */
	streamOptions?: StreamOptions;
	/** From `/compact <instructions>`. */
	customInstructions?: string;
	/**
	 * Compact even when the conversation fits in `keepRecentTokens`, keeping only the start of the latest turn.
	 * For `/compact` and for recovery from a context overflow, where doing nothing is no answer.
	 */
	force?: boolean;
	/** The context size before compaction when better known than the estimate (e.g. from an overflow error). */
	tokensBefore?: number;
	/** The tools whose calls the messages may hold, asked which files each call read or changed (none: empty lists). */
	tools?: readonly FileEffectTool[];
}

/** Exactly the fields of a compaction entry the caller supplies (the store adds id, parentId, timestamp, n). */
export type CompactionResult = Pick<CompactionEntry, "summary" | "firstKeptEntryId" | "tokensBefore">;

/**
 * Finds the cut in the current view (after the previous compaction's kept start), summarises the messages
 * before it (building on the previous summary, file lists merged exactly), and returns the new entry's data.
 * Throws a CompactionError: "nothing_to_compact", "aborted" (nothing changed) or "summary_failed".
 */
export async function compact(options: CompactOptions): Promise<CompactionResult> {
	const { entries, model } = options;
	if (options.signal?.aborted) throw compactionAborted();
	const view = buildCompactedContext(entries);
	const tokensBefore = options.tokensBefore ?? estimateContextTokens(view.messages);
	const keepRecentTokens = effectiveKeepRecentTokens(model.contextWindow, resolveCompactionSettings(options.settings));

	let cut = findCutPoint(entries, keepRecentTokens, view.viewStartIndex);
	if (!cut && options.force) cut = findCutPoint(entries, 0, view.viewStartIndex);
	if (!cut?.firstKeptEntryId) {
		throw new CompactionError(
			"nothing_to_compact",
			`Nothing to compact: the conversation since the last summary is within the ${keepRecentTokens} most recent tokens kept verbatim.`,
		);
	}

	const messagesToSummarize: AgentMessage[] = [];
	for (let i = view.viewStartIndex; i < cut.firstKeptIndex; i++) {
		const entry = entries[i]!;
		if (entry.type === "message") messagesToSummarize.push(entry.message);
	}
	const previousSummary = view.compaction?.summary;
	const body = await generateSummary(model, messagesToSummarize, {
		streamFn: options.streamFn,
		apiKey: options.apiKey,
		signal: options.signal,
		streamOptions: options.streamOptions,
		previousSummary,
		customInstructions: options.customInstructions,
	});
	const files = collectFileOperations(messagesToSummarize, options.tools ?? [], splitFileLists(previousSummary ?? "").operations);
	// The todo list goes between the model's text and the file lists (which stay last: splitFileLists reads them
	// there), so the summary, and with it every later request, carries the list as it is now.
	const todos = latestTodos(entries);
	const todoPart = todos.length === 0 ? "" : `${TODO_HEADING}\n${todoListText(todos)}\n\n`;
	return { summary: `${body}\n\n${todoPart}${formatFileLists(files)}`, firstKeptEntryId: cut.firstKeptEntryId, tokensBefore };
}
