// A compaction during a run: the agent loop keeps its own copy of the run's messages, so the compacted view
// reaches the model through the loop's transformContext hook, mapped by this function.
import type { AgentMessage } from "../../engine/index.js";
import type { SessionEntry } from "../store/index.js";
import { latestCompaction, withoutOrphanToolResults } from "./compacted-context.js";
import { summaryOfCompaction } from "./summary-message.js";

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
