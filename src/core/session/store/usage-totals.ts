// Token and cost totals over a conversation's assistant messages.
import type { AgentMessage } from "../../engine/index.js";
import type { AssistantMessage } from "../../ai/index.js";

export interface UsageTotals {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	/** Of output, the tokens spent reasoning; present once a provider reported any. */
	reasoning?: number;
	/** US dollars. */
	cost: number;
}

export function zeroUsage(): UsageTotals {
	return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 };
}

export function addUsage(totals: UsageTotals, message: AgentMessage): UsageTotals {
	if (message.role !== "assistant") return totals;
	const usage = (message as AssistantMessage).usage;
	if (!usage) return totals;
	const sum: UsageTotals = {
		input: totals.input + (usage.input ?? 0),
		output: totals.output + (usage.output ?? 0),
		cacheRead: totals.cacheRead + (usage.cacheRead ?? 0),
		cacheWrite: totals.cacheWrite + (usage.cacheWrite ?? 0),
		cost: totals.cost + (usage.cost?.total ?? 0),
	};
	// Messages saved before reasoning was recorded have none: they add nothing.
	if (totals.reasoning !== undefined || usage.reasoning !== undefined) sum.reasoning = (totals.reasoning ?? 0) + (usage.reasoning ?? 0);
	return sum;
}

export function sumUsage(messages: readonly AgentMessage[]): UsageTotals {
	return messages.reduce(addUsage, zeroUsage());
}

/** Totals over every message entry of a session file, the compacted-away ones included. */
export function sumEntryUsage(entries: readonly { type: string; message?: AgentMessage }[]): UsageTotals {
	let totals = zeroUsage();
	for (const entry of entries) if (entry.type === "message" && entry.message) totals = addUsage(totals, entry.message);
	return totals;
}
