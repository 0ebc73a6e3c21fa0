// Makes a conversation a sequence every provider accepts, whatever damage a session file suffered: a user message
// first, never two answers in a row, each tool result right after its call, each call with a result. Run on every
// request (so nothing invalid is ever sent) and on load (to tell the user what was repaired).
import type { AgentMessage } from "../../engine/index.js";
import { ANSWER_PARTS, NO_RESULT_TEXT, TOOL_RESULT_PARTS, contentPartProblem } from "../../ai/index.js";
import type { AssistantMessage, ToolCall, ToolResultMessage, UserMessage } from "../../ai/index.js";

export const LOST_MESSAGE_TEXT = "[A message here could not be restored from the session file.]";
export const LOST_PARTS_TEXT = "[This message's content could not be restored from the session file.]";

/**
 * A message read from a file with its malformed content parts (null, a text that is not text, an unknown type: see
 * contentPartProblem) left out, and how many were. A user or tool-result message left with no part holds a
 * placeholder text instead; messages of other roles are returned as they are.
 */
export function dropMalformedParts(message: AgentMessage): { message: AgentMessage; skipped: number } {
	const { role, content } = message as { role: string; content?: unknown };
	const allowed = role === "assistant" ? ANSWER_PARTS : role === "user" || role === "toolResult" ? TOOL_RESULT_PARTS : undefined;
	if (!allowed || (role === "user" && typeof content === "string")) return { message, skipped: 0 };
	const parts = Array.isArray(content) ? content : [];
	const kept = parts.filter((part) => contentPartProblem(part, allowed) === undefined);
	const skipped = Array.isArray(content) ? parts.length - kept.length : 1;
	if (skipped === 0) return { message, skipped };
	const placeholder = role !== "assistant" && kept.length === 0 ? [{ type: "text", text: LOST_PARTS_TEXT }] : [];
	return { message: { ...message, content: [...kept, ...placeholder] } as AgentMessage, skipped };
}

export interface RepairedConversation {
	messages: AgentMessage[];
	/** One line per kind of repair made, for the user; empty when the conversation was valid. */
	repairs: string[];
}

type Kind = "answerFirst" | "answersInARow" | "orphanResult" | "missingResult";

const DESCRIPTIONS: Record<Kind, (count: number) => string> = {
	answerFirst: () => "the conversation began with an answer (its question was lost); a placeholder question stands before it",
	answersInARow: (n) => `two answers in a row (the message between them was lost) ${times(n)}; a placeholder message stands between them`,
	orphanResult: (n) => `a tool result without its call ${times(n)}; dropped`,
	missingResult: (n) => `a tool call without its result ${times(n)}; an error result stands in for it`,
};

function times(count: number): string {
	return count === 1 ? "once" : `${count} times`;
}

/**
 * Answers that ended in an error or an abort are kept but not judged: providers never receive them (see
 * transformMessages), nor the results of their calls. Messages of other roles pass through.
 */
export function repairConversation(messages: readonly AgentMessage[]): RepairedConversation {
	const out: AgentMessage[] = [];
	const counts = new Map<Kind, number>();
	const repair = (kind: Kind) => counts.set(kind, (counts.get(kind) ?? 0) + 1);
	let last: "none" | "user" | "assistant" | "toolResult" = "none";
	let open: ToolCall[] = [];
	const unsent = new Set<string>();

	const closeOpenCalls = () => {
		for (const call of open) {
			repair("missingResult");
			out.push(missingResult(call));
		}
		if (open.length > 0) last = "toolResult";
		open = [];
	};

	for (const message of messages) {
		const role = (message as { role?: string }).role;
		if (role === "assistant") {
			const answer = message as AssistantMessage;
			const calls = answer.content.filter((part): part is ToolCall => part.type === "toolCall");
			if (answer.stopReason === "error" || answer.stopReason === "aborted") {
				for (const call of calls) unsent.add(call.id);
				out.push(message);
				continue;
			}
			closeOpenCalls();
			if (last === "none" || last === "assistant") {
				repair(last === "none" ? "answerFirst" : "answersInARow");
				out.push(placeholder(answer.timestamp));
			}
			out.push(message);
			open = calls;
			last = "assistant";
		} else if (role === "toolResult") {
			const id = (message as ToolResultMessage).toolCallId;
			const index = open.findIndex((call) => call.id === id);
			if (index !== -1) {
				open.splice(index, 1);
				out.push(message);
				last = "toolResult";
			} else if (unsent.has(id)) out.push(message);
			else repair("orphanResult");
		} else if (role === "user") {
			closeOpenCalls();
			out.push(message);
			last = "user";
		} else out.push(message);
	}
	closeOpenCalls();
	const repairs = [...counts].map(([kind, count]) => DESCRIPTIONS[kind](count));
	return { messages: counts.size === 0 ? [...messages] : out, repairs };
}

/**
 * The calls of the last answer that have no result yet: what was running when a run was cut short. An answer that
 * ended in an abort or an error has none (its calls never ran, and providers never receive it).
 */
export function unansweredToolCalls(messages: readonly AgentMessage[]): ToolCall[] {
	const answered = new Set<string>();
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i] as { role?: string };
		if (message.role === "toolResult") answered.add((message as ToolResultMessage).toolCallId);
		else if (message.role === "assistant") {
			const answer = message as AssistantMessage;
			if (answer.stopReason === "error" || answer.stopReason === "aborted") return [];
			return answer.content.filter((part): part is ToolCall => part.type === "toolCall" && !answered.has(part.id));
		} else return [];
	}
	return [];
}

/** The error result that stands for a call whose real result is unknown. */
export function missingResult(call: ToolCall, text = NO_RESULT_TEXT): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId: call.id,
		toolName: call.name,
		content: [{ type: "text", text }],
		isError: true,
		timestamp: Date.now(),
	};
}

function placeholder(timestamp: number): UserMessage {
	return { role: "user", content: LOST_MESSAGE_TEXT, timestamp };
}
