// Which recorded result answers which tool call. A session records each assistant message's results right after
// it, so a result answers a call of the assistant message before it, never one of another turn: call ids are only
// unique within one message (some OpenAI-compatible servers number them afresh every turn).
import type { AssistantMessage, ToolCall, ToolResultMessage } from "./llm-types.js";

/**
 * Each call that has a result, mapped to it (keyed by the call's own content part). A result whose id no call
 * of the message before it has (or that a result before it already answered) answers nothing. Messages of
 * other roles (a user's, a summary) between the results do not end the message's calls.
 */
export function pairToolResults(messages: readonly unknown[]): Map<ToolCall, ToolResultMessage> {
	const pairs = new Map<ToolCall, ToolResultMessage>();
	let open: ToolCall[] = [];
	for (const message of messages) {
		const role = (message as { role?: unknown } | null | undefined)?.role;
		if (role === "assistant") {
			const content = (message as AssistantMessage).content;
			open = Array.isArray(content) ? content.filter((part): part is ToolCall => part?.type === "toolCall") : [];
		} else if (role === "toolResult") {
			const result = message as ToolResultMessage;
			const index = open.findIndex((call) => call.id === result.toolCallId);
			if (index === -1) continue;
			pairs.set(open[index]!, result);
			open = open.filter((_, at) => at !== index);
		}
	}
	return pairs;
}
