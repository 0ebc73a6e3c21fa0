// Where to cut: the older part is summarised, the part from the cut on stays verbatim in the model's view.
import type { AgentMessage } from "../../engine/index.js";
import type { SessionEntry } from "../store/index.js";
import { estimateTokens } from "./token-estimate.js";

export interface CutPoint {
	/** Index (in the array given) of the first kept item; everything before it, from `startIndex`, is summarised. */
	firstKeptIndex: number;
	/** The first kept entry's id, when entries were given. */
	firstKeptEntryId?: string;
	/** Estimated tokens kept from the cut to the end. */
	keptTokens: number;
}

type Item = SessionEntry | AgentMessage;

function messageOf(item: Item): AgentMessage | undefined {
	if ("role" in item) return item;
	return (item as SessionEntry).type === "message" ? (item as Extract<SessionEntry, { type: "message" }>).message : undefined;
}

/**
 * A cut may fall before a user or an assistant message only. Never before a tool result: the result would lose
 * the assistant tool call it answers (providers reject that), so a call and all its results stay on one side.
 * Nor before a failed or aborted answer: providers never see those, so a kept part starting there would in
 * effect start with nothing (after a context overflow, the prompt that overflowed would be summarised away).
 */
function isValidCut(item: Item): boolean {
	const message = messageOf(item) as { role?: string; stopReason?: string } | undefined;
	if (message?.role === "user") return true;
	return message?.role === "assistant" && message.stopReason !== "error" && message.stopReason !== "aborted";
}

/**
 * Keeps about `keepRecentTokens` of the most recent conversation: walks back from the end adding message
 * estimates until the budget is reached; the message that reaches it is kept whole when a cut may go before it,
 * else the cut moves to the next user or assistant message (keeping a little less), or, when only tool results
 * follow, back to the assistant message that owns them.
 * Works on session entries (non-message entries count nothing and are never a cut) or on plain messages.
 * `startIndex`: where the current view begins (the previous compaction's first kept entry); nothing before it
 * is considered. Returns undefined when everything fits in the budget or nothing lies before the cut.
 * `keepRecentTokens` 0 keeps only the last turn's start (used to force a compaction).
 */
export function findCutPoint(items: readonly Item[], keepRecentTokens: number, startIndex = 0): CutPoint | undefined {
	const tokens = items.map((item) => {
		const message = messageOf(item);
		return message ? estimateTokens(message) : 0;
	});
	let boundary: number | undefined;
	let accumulated = 0;
	for (let i = items.length - 1; i >= startIndex; i--) {
		if (!messageOf(items[i]!)) continue;
		accumulated += tokens[i]!;
		if (accumulated >= keepRecentTokens) {
			boundary = i;
			break;
		}
	}
	if (boundary === undefined) return undefined;

	const firstMessage = items.findIndex((item, index) => index >= startIndex && messageOf(item) !== undefined);
	const summarisable = (index: number) => firstMessage !== -1 && index > firstMessage;
	let cut: number | undefined;
	for (let i = boundary; i < items.length && cut === undefined; i++) if (isValidCut(items[i]!)) cut = i;
	for (let i = boundary - 1; cut === undefined && i > startIndex; i--) if (isValidCut(items[i]!)) cut = i;
	if (cut === undefined || !summarisable(cut)) return undefined;

	let keptTokens = 0;
	for (let i = cut; i < items.length; i++) keptTokens += tokens[i]!;
	const item = items[cut]!;
	return { firstKeptIndex: cut, firstKeptEntryId: "role" in item ? undefined : (item as SessionEntry).id, keptTokens };
}
