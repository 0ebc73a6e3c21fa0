// Rebuilds what a resumed conversation continues from: the model's view of the messages (compacted when the
// session was compacted), and the last model and thinking level chosen.
import type { AgentMessage } from "../../engine/index.js";
import type { ThinkingLevel } from "../../ai/index.js";
import { buildCompactedContext } from "./compacted-context.js";
import { repairConversation } from "../store/index.js";
import type { SessionEntry } from "../store/index.js";

export interface SessionContext {
	/** What the model sees: after a compaction its summary, the kept messages and every later one; else every message. */
	messages: AgentMessage[];
	/** The last model_change, if any. */
	model?: { provider: string; modelId: string };
	/** The last thinking_change, if any. */
	thinkingLevel?: ThinkingLevel;
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
	}
	return context;
}
