// The model's view of a session: after a compaction, its summary, then the kept entries and everything later.
// The file keeps every entry; only this view is compacted. Resuming a session calls this to get the same view,
// with the last model and thinking level chosen (buildSessionContext). A compaction during a run reaches the
// model the same way: the agent loop keeps its own copy of the run's messages, so the compacted view goes through
// the loop's transformContext hook, mapped by applyCompactionToLoopMessages.
import type { AgentMessage } from "../../engine/index.js";
import type { AssistantMessage, ThinkingLevel, ToolResultMessage } from "../../ai/index.js";
import { repairConversation, type CompactionEntry, type SessionEntry } from "../store/index.js";
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

/**
 * Maps the messages the loop holds (which may still include what the latest compaction summarised, and an
 * older summary) to the model's view: the latest summary, then the loop's messages from the first kept one on.
 * The first kept message is found by identity (the store holds the loop's own message objects) or else by role
 * and timestamp. Without a compaction, or when the kept message is not among `messages`, returns them as they are.
 */
export function applyCompactionToLoopMessages(messages: readonly AgentMessage[], entries: readonly SessionEntry[]): AgentMessage[] {
	const latest = latestCompaction(entries);
	if (!latest) return [...messages];
	const kept = entries.find((entry) => entry.id === latest.entry.firstKeptEntryId);
	if (kept?.type !== "message") return [...messages];
	let index = messages.indexOf(kept.message);
	if (index === -1) index = messages.findIndex((message) => sameMessage(message, kept.message));
	if (index === -1) return [...messages];
	return [summaryOfCompaction(latest.entry), ...withoutOrphanToolResults(messages.slice(index))];
}

function sameMessage(a: AgentMessage, b: AgentMessage): boolean {
	const left = a as { role?: string; timestamp?: number };
	const right = b as { role?: string; timestamp?: number };
	return left.role === right.role && left.timestamp === right.timestamp && JSON.stringify(a) === JSON.stringify(b);
}

/**
 * What a resumed conversation continues from: the model's view of the messages (compacted when the session was
 * compacted), and the last model and thinking level chosen.
 */
export interface SessionContext {
	/** What the model sees: after a compaction its summary, the kept messages and every later one; else every message. */
	messages: AgentMessage[];
	/** The last model_change, if any. */
	model?: { provider: string; modelId: string };
	/** The last thinking_change, if any. */
	thinkingLevel?: ThinkingLevel;
	/** What last brought text from the web (or another untrusted source) into the conversation, unless cleared since. */
	taint?: string;
	/**
	 * What the model would receive that no provider accepts (a damaged file), and how each request repairs it
	 * (see repairConversation); empty for an intact session. `messages` stay as recorded.
	 */
	repairs: string[];
}

/**
 * The file keeps every entry; only the view returned here is compacted, so a resume rebuilds the same context.
 * `view` replaces the default view of the messages (AgentSession's buildContext option).
 */
export function buildSessionContext(
	entries: readonly SessionEntry[],
	view: (entries: readonly SessionEntry[]) => AgentMessage[] = (all) => buildCompactedContext(all).messages,
): SessionContext {
	const messages = view(entries);
	const context: SessionContext = { messages, repairs: repairConversation(messages).repairs };
	for (const entry of entries) {
		if (entry.type === "model_change") context.model = { provider: entry.provider, modelId: entry.modelId };
		else if (entry.type === "thinking_change") context.thinkingLevel = entry.thinkingLevel;
		else if (entry.type === "taint") context.taint = entry.source ?? undefined;
	}
	return context;
}
