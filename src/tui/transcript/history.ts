// Transcript items for a conversation loaded from a session file (resume, continue): prompts, answers,
// thinking, and each assistant message's tool calls as a finished batch with their results.
import type { AgentMessage } from "../../core/index.js";
import {
	messageSearch,
	textFromContent,
	findTool,
	pairToolResults,
	type NamedToolPresentation,
	toolSummary,
	isCompactionSummary,
} from "../../core/index.js";
import { promptItem, thinkingFromContent, typedText, userText } from "./message-text.js";
import { hasMarker } from "../editor/index.js";
import type { NewTranscriptItem as NewItem, ToolRunView } from "./view-model.js";

/** Messages shown at most; a long session starts with a line saying how many were left out. */
export const HISTORY_MESSAGES = 60;
/** Prompts of an opened session the editor's Up arrow recalls at most (the latest). */
export const HISTORY_PROMPTS = 500;

function isRole<R extends string>(message: AgentMessage, role: R): boolean {
	return (message as { role?: string }).role === role;
}

/** `tools`: the session's tool presentations, for the rows' argument summaries; `cwd`: where @-mentions were read. */
export function historyItems(messages: readonly AgentMessage[], tools: readonly NamedToolPresentation[] = [], cwd?: string, limit = HISTORY_MESSAGES): NewItem[] {
	const start = Math.max(0, messages.length - limit);
	const shown = messages.slice(start);
	const results = pairToolResults(shown);
	const items: NewItem[] = [];
	if (start > 0) items.push({ kind: "notice", level: "info", text: `${start} earlier messages not shown` });
	let turn = 0;
	shown.forEach((message, index) => {
		if (isRole(message, "user")) {
			items.push(promptItem(message, cwd));
			return;
		}
		if (isCompactionSummary(message)) {
			// Read defensively: a hand-edited file may lack the count.
			const tokens = message.tokensBefore;
			const before = typeof tokens === "number" && tokens > 0 ? ` (${tokens.toLocaleString("en-US")} tokens before)` : "";
			const detail = typeof message.summary === "string" && message.summary !== "" ? { detail: message.summary } : {};
			items.push({ kind: "notice", level: "info", text: `Earlier messages were compacted into a summary${before}; the model continues from it.`, ...detail });
			return;
		}
		if (!isRole(message, "assistant")) return;
		turn++;
		const content = (message as { content?: unknown }).content;
		const messageId = `h${index}`;
		const thinking = thinkingFromContent(content);
		if (thinking.text.trim() !== "" || thinking.redacted) items.push({ kind: "thinking", messageId, turn, text: thinking.text, redacted: thinking.redacted });
		const text = textFromContent(content);
		if (text.trim() !== "") items.push({ kind: "assistant", messageId, turn, text });
		const search = messageSearch(message);
		if (search) items.push({ kind: "sources", search });
		const calls = Array.isArray(content) ? content.filter((block) => block?.type === "toolCall") : [];
		if (calls.length === 0) return;
		const runs: ToolRunView[] = calls.map((call) => {
			const id = String(call.id);
			const name = typeof call.name === "string" ? call.name : "tool";
			const result = results.get(call);
			return {
				id,
				name,
				status: result === undefined || result.isError ? "error" : "done",
				argsPreview: toolSummary(findTool(tools, name), call.arguments),
				args: call.arguments,
				resultText: result === undefined ? "No result recorded." : textFromContent(result.content),
				...(result?.details !== undefined ? { details: result.details } : {}),
				startedAt: 0,
				endedAt: 0,
				untimed: true,
			};
		});
		items.push({ kind: "tools", turn, runs });
	});
	return items;
}

/**
 * The prompts of a conversation, oldest first, for the editor's history (a prompt repeated at once, once): as
 * typed, except where that holds a paste's marker, whose paste only the text sent still has.
 */
export function promptHistory(messages: readonly AgentMessage[], limit = HISTORY_PROMPTS): string[] {
	const prompts: string[] = [];
	for (const message of messages) {
		if (!isRole(message, "user")) continue;
		const typed = typedText(message);
		const text = hasMarker(typed) ? userText((message as { content?: unknown }).content) : typed;
		if (text.trim() !== "" && prompts.at(-1) !== text) prompts.push(text);
	}
	return prompts.slice(-limit);
}
