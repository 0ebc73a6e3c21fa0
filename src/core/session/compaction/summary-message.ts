// The compaction summary: a message of its own kind among the agent's messages, standing for the compacted part
// of the conversation. The session file keeps it as a compaction entry; the view rebuilds the message from that
// entry, and a provider sees it as a user message (convertToLlmWithSummaries).
import type { AgentMessage } from "../../engine/index.js";
import { defaultConvertToLlm } from "../../engine/index.js";
import type { Message, UserMessage } from "../../ai/index.js";
import type { CompactionEntry } from "../store/index.js";

export interface CompactionSummaryMessage {
	role: "compactionSummary";
	/** The summary as the compaction entry holds it (the model's text, then the file lists). */
	summary: string;
	/** Tokens of the context the summary replaced. */
	tokensBefore: number;
	/** When the compaction happened. */
	timestamp: number;
}

declare module "../../engine/agent-types.js" {
	interface CustomAgentMessages {
		compactionSummary: CompactionSummaryMessage;
	}
}

/** Opens the user message a provider sees in the summary's place. */
export const SUMMARY_LEAD_IN =
	"The earlier part of this conversation was compacted to save context. Here is a summary of it; the messages after this one continue the conversation as it happened.";

export function createCompactionSummary(summary: string, tokensBefore: number, timestamp: number): CompactionSummaryMessage {
	return { role: "compactionSummary", summary, tokensBefore, timestamp };
}

/** The summary message a compaction entry stands for, timestamped when the compaction happened. */
export function summaryOfCompaction(entry: Pick<CompactionEntry, "summary" | "tokensBefore" | "timestamp">): CompactionSummaryMessage {
	const time = Date.parse(entry.timestamp);
	return createCompactionSummary(entry.summary, entry.tokensBefore, Number.isNaN(time) ? Date.now() : time);
}

export function isCompactionSummary(message: AgentMessage): message is CompactionSummaryMessage {
	return (message as { role?: string }).role === "compactionSummary";
}

/** What a provider sees in the summary's place. */
export function compactionSummaryToUser(message: CompactionSummaryMessage): UserMessage {
	return { role: "user", content: `${SUMMARY_LEAD_IN}\n\n<summary>\n${message.summary.trim()}\n</summary>`, timestamp: message.timestamp };
}

/** A session's convertToLlm: each summary becomes its user message; everything else as the Agent's default. */
export function convertToLlmWithSummaries(messages: AgentMessage[]): Message[] {
	return defaultConvertToLlm(messages.map((message) => (isCompactionSummary(message) ? compactionSummaryToUser(message) : message)));
}
