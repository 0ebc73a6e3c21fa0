// The user message that stands in the model's view for the compacted part of the conversation.
import type { AgentMessage } from "../../agent-types.js";
import type { UserMessage } from "../../llm-types.js";

/** Opens every summary message; also how a summary message is recognised (see isSummaryMessage). */
export const SUMMARY_LEAD_IN =
	"The earlier part of this conversation was compacted to save context. Here is a summary of it; the messages after this one continue the conversation as it happened.";

export function createSummaryMessage(summary: string, timestamp: number): UserMessage {
	return { role: "user", content: `${SUMMARY_LEAD_IN}\n\n<summary>\n${summary.trim()}\n</summary>`, timestamp };
}

export function isSummaryMessage(message: AgentMessage): message is UserMessage {
	return (
		(message as { role?: string }).role === "user" &&
		typeof (message as UserMessage).content === "string" &&
		((message as UserMessage).content as string).startsWith(SUMMARY_LEAD_IN)
	);
}
