// The model's view of a session: after a compaction, its summary, then the kept entries and everything later.
// The file keeps every entry; only this view is compacted. Resuming a session calls this to get the same view.
import type { AgentMessage } from "../../engine/index.js";
import type { AssistantMessage, ToolResultMessage } from "../../ai/index.js";
import type { CompactionEntry, SessionEntry } from "../store/index.js";
import { summaryOfCompaction } from "./summary-message.js";

export interface CompactedContext {
	/** What the model sees: [summary message, kept messages…, later messages…], or every message without compaction. */
	messages: AgentMessage[];
	/** The latest compaction, if the session has one. */
	compaction?: CompactionEntry;
	/**
	 * Index into the entries where the verbatim part of the view begins (the first kept entry; 0 without
	 * compaction). A next compaction summarises from here on, building on `compaction.summary`.
	 */
	viewStartIndex: number;
}

export function latestCompaction(entries: readonly SessionEntry[]): { entry: CompactionEntry; index: number } | undefined {
	for (let i = entries.length - 1; i >= 0; i--) {
		const entry = entries[i]!;
		if (entry.type === "compaction") return { entry, index: i };
	}
	return undefined;
}

/**
 * Rebuilds the view from the session's entries. With a compaction: its summary message, then every message entry from `firstKeptEntryId` on, compaction entries skipped.
 * A `firstKeptEntryId` not found in the file (hand-edited or damaged) falls back to the entries after the
 * compaction, and tool results whose call is not in the view are dropped, so the view is always valid for a provider.
 */
export function buildCompactedContext(entries: readonly SessionEntry[]): CompactedContext {
	const latest = latestCompaction(entries);
	if (!latest) return { messages: messagesFrom(entries, 0), viewStartIndex: 0 };

	const keptIndex = entries.findIndex((entry) => entry.id === latest.entry.firstKeptEntryId);
	const viewStartIndex = keptIndex === -1 ? latest.index + 1 : keptIndex;
	return {
		messages: [summaryOfCompaction(latest.entry), ...withoutOrphanToolResults(messagesFrom(entries, viewStartIndex))],
		compaction: latest.entry,
		viewStartIndex,
	};
}

function messagesFrom(entries: readonly SessionEntry[], start: number): AgentMessage[] {
	const messages: AgentMessage[] = [];
	for (let i = start; i < entries.length; i++) {
		const entry = entries[i]!;
		if (entry.type === "message") messages.push(entry.message);
	}
	return messages;
}

/** Drops tool results whose call is not in the messages before them (providers reject those). */
export function withoutOrphanToolResults(messages: AgentMessage[]): AgentMessage[] {
	const calls = new Set<string>();
	return messages.filter((message) => {
		const role = (message as { role?: string }).role;
		if (role === "assistant") {
			for (const part of (message as AssistantMessage).content) if (part.type === "toolCall") calls.add(part.id);
		}
		return role !== "toolResult" || calls.has((message as ToolResultMessage).toolCallId);
	});
}
