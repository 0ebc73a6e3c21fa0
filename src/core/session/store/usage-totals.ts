// Token and cost totals over a conversation's assistant messages, and those of the child sessions a task tool's
// results link (a result's `details.subagent`: which agent ran, its session file, what it spent). The link is read
// defensively: the details come from a session file.
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
	if (message.role === "toolResult") {
		const child = subagentLink(message)?.usage;
		return child ? addTotals(totals, child) : totals;
	}
	if (message.role !== "assistant") return totals;
	const usage = (message as AssistantMessage).usage;
	if (!usage) return totals;
	// Messages saved before reasoning was recorded have none: they add nothing.
	return addTotals(totals, { ...usage, cost: usage.cost?.total ?? 0 });
}

/** Two totals added (a child session's into its parent's). */
export function addTotals(totals: UsageTotals, more: UsageTotals): UsageTotals {
	const sum: UsageTotals = {
		input: totals.input + (more.input ?? 0),
		output: totals.output + (more.output ?? 0),
		cacheRead: totals.cacheRead + (more.cacheRead ?? 0),
		cacheWrite: totals.cacheWrite + (more.cacheWrite ?? 0),
		cost: totals.cost + (more.cost ?? 0),
	};
	if (totals.reasoning !== undefined || more.reasoning !== undefined) sum.reasoning = (totals.reasoning ?? 0) + (more.reasoning ?? 0);
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

export interface SubagentLink {
	/** The agent definition's name ("general" without one). */
	agent: string;
	/** The child's session id. */
	sessionId: string;
	/** The child's session file; absent for a parent kept in memory. */
	sessionFile?: string;
	/** What the child's messages cost, its own children's included. */
	usage: UsageTotals;
	/** Set when the child worked in a worktree of its own: the branch its work was committed on, and what it changed. */
	worktree?: { branch: string; diffStat: string };
}

/** The link a tool result message carries, or undefined (any other message, or details of another shape). */
export function subagentLink(message: AgentMessage | { role?: string; details?: unknown }): SubagentLink | undefined {
	if ((message as { role?: string }).role !== "toolResult") return undefined;
	const link = ((message as { details?: unknown }).details as { subagent?: unknown } | null | undefined)?.subagent as Partial<SubagentLink> | undefined;
	if (!link || typeof link !== "object" || typeof link.agent !== "string" || typeof link.sessionId !== "string") return undefined;
	const usage = link.usage as Partial<UsageTotals> | undefined;
	if (!usage || typeof usage !== "object" || typeof usage.input !== "number" || typeof usage.output !== "number") return undefined;
	return link as SubagentLink;
}
