// Rebuilds what a resumed conversation continues from: the messages, and the last model and thinking level chosen.
import type { AgentMessage } from "../agent-types.js";
import type { ThinkingLevel } from "../llm-types.js";
import type { SessionEntry } from "./session-entries.js";

export interface SessionContext {
	messages: AgentMessage[];
	/** The last model_change, if any. */
	model?: { provider: string; modelId: string };
	/** The last thinking_change, if any. */
	thinkingLevel?: ThinkingLevel;
}

/**
 * Every message entry in file order. Compaction entries (issue 7) are where the model's view would start
 * from a summary instead; until compaction lands they are ignored here and the full history is sent.
 */
export function buildSessionContext(entries: readonly SessionEntry[]): SessionContext {
	const context: SessionContext = { messages: [] };
	for (const entry of entries) {
		switch (entry.type) {
			case "message":
				context.messages.push(entry.message);
				break;
			case "model_change":
				context.model = { provider: entry.provider, modelId: entry.modelId };
				break;
			case "thinking_change":
				context.thinkingLevel = entry.thinkingLevel;
				break;
			case "compaction":
				break;
		}
	}
	return context;
}
