// The session's one state per tool call, reduced from the events as they are emitted (the agent's tool timeline,
// tool_execution_running, the approval policy's events) and from the before-chain's refusals:
//   the assistant message ends → queued (each call of the batch, in the model's order; none after an error or an
//   abort), tool_execution_start → preparing, approval asked → awaiting_approval → answered → preparing,
//   execute() began (or a first update) → running, end → done | error | blocked (refused before it ran).
// Timings: startedAt is when execute() began, so the running time never holds a wait for approval; the waits are
// summed in approvalWaitMs. Holds the calls of the latest batch: the next batch, or the next run, forgets the ended ones.
import type { AgentMessage, AgentToolResult, NamedToolPresentation } from "../engine/index.js";
import { describeToolCall, findTool } from "../engine/index.js";
import type { SessionEvent, ToolCallState, ToolCallStatus } from "./session-events.js";

type ChangeEvent = Extract<SessionEvent, { type: "tool_call_changed" }>;

const NONE: readonly ChangeEvent[] = [];
const NOT_RUN = "Not run: the run ended before its turn.";
const INTERRUPTED = "Interrupted before it finished.";

export function isSettledCall(call: Pick<ToolCallState, "status">): boolean {
	return call.status === "done" || call.status === "error" || call.status === "blocked";
}

/**
 * How long a call ran (execute() to its end, or to `now` while it runs; undefined when it never ran) and how long
 * it waited for approval (a wait going on counted to `now`).
 */
export function toolCallTimes(call: ToolCallState, now: number): { runningMs: number | undefined; approvalWaitMs: number } {
	const waiting = call.approvalRequestedAt === undefined ? 0 : Math.max(0, now - call.approvalRequestedAt);
	const runningMs = call.startedAt === undefined ? undefined : Math.max(0, (call.endedAt ?? now) - call.startedAt);
	return { runningMs, approvalWaitMs: call.approvalWaitMs + waiting };
}

export class ToolCallStates {
	private readonly calls = new Map<string, ToolCallState>();
	/** Calls the before-chain refused: their end says "blocked", not "error". */
	private readonly refused = new Set<string>();

	/** `tools`: the session's definitions now (a call is described by its tool's when first seen). */
	constructor(
		private readonly tools: () => readonly NamedToolPresentation[],
		private readonly now: () => number = Date.now,
	) {}

	/** The latest batch's calls, in the order they were queued. */
	get all(): ReadonlyMap<string, ToolCallState> {
		return this.calls;
	}

	/** The before-chain refused this call (a policy rule, the user's no, a hook): it ends blocked. */
	markBlocked(toolCallId: string): void {
		const call = this.calls.get(toolCallId);
		if (call && !isSettledCall(call)) this.refused.add(toolCallId);
	}

	/** Updates the states from one event as it is emitted; returns the changes, to deliver before the event. */
	reduce(event: SessionEvent): readonly ChangeEvent[] {
		switch (event.type) {
			case "message_end":
				return this.queue(event.message);
			case "run_start":
				this.forgetSettled();
				return NONE;
			case "tool_execution_start": {
				const existing = this.calls.get(event.toolCallId);
				if (existing && existing.status !== "queued") return NONE;
				const at = this.now();
				const call = existing ?? this.newCall(event.toolCallId, event.toolName, event.args, at);
				return this.set({ ...call, status: "preparing", preparingAt: at });
			}
			case "tool_approval_requested":
				return this.change(event.toolCallId, (call) =>
					call.status === "preparing" ? { ...call, status: "awaiting_approval", approvalRequestedAt: this.now() } : undefined,
				);
			case "tool_approval_resolved":
				if (event.outcome !== "allowed" && event.outcome !== "allowed-for-session") this.markBlocked(event.toolCallId);
				return this.change(event.toolCallId, (call) => (call.status === "awaiting_approval" ? this.answered(call) : undefined));
			case "tool_execution_running":
				return this.change(event.toolCallId, (call) => (isSettledCall(call) || call.status === "running" ? undefined : this.started(call)));
			case "tool_execution_update":
				return this.change(event.toolCallId, (call) =>
					isSettledCall(call) ? undefined : { ...(call.status === "running" ? call : this.started(call)), partialResult: event.partialResult },
				);
			case "tool_execution_end":
				return this.change(event.toolCallId, (call) => (isSettledCall(call) ? undefined : this.ended(call, event.result, event.isError)));
			case "turn_end":
			case "agent_end":
				return this.closeUnsettled();
			default:
				return NONE;
		}
	}

	private queue(message: AgentMessage): readonly ChangeEvent[] {
		const assistant = message as { role?: string; stopReason?: string; content?: unknown };
		if (assistant.role !== "assistant" || assistant.stopReason === "error" || assistant.stopReason === "aborted" || !Array.isArray(assistant.content)) return NONE;
		const calls = (assistant.content as { type?: string }[]).filter((block) => block?.type === "toolCall");
		if (calls.length === 0) return NONE;
		this.forgetSettled();
		const at = this.now();
		const changes: ChangeEvent[] = [];
		for (const block of assistant.content as { type?: string; id?: unknown; name?: unknown; arguments?: unknown }[]) {
			if (block?.type !== "toolCall" || typeof block.id !== "string" || this.calls.has(block.id)) continue;
			changes.push(...this.set(this.newCall(block.id, typeof block.name === "string" ? block.name : "tool", block.arguments, at)));
		}
		return changes;
	}

	private newCall(id: string, name: string, args: unknown, at: number): ToolCallState {
		const description = describeToolCall(findTool(this.tools(), name), args);
		return { id, name, args, status: "queued", description, queuedAt: at, approvalWaitMs: 0 };
	}

	private answered(call: ToolCallState): ToolCallState {
		const { approvalRequestedAt, ...rest } = call;
		const waited = approvalRequestedAt === undefined ? 0 : Math.max(0, this.now() - approvalRequestedAt);
		return { ...rest, status: "preparing", approvalWaitMs: call.approvalWaitMs + waited };
	}

	private started(call: ToolCallState): ToolCallState {
		const settledWait = call.status === "awaiting_approval" ? this.answered(call) : call;
		return { ...settledWait, status: "running", startedAt: this.now() };
	}

	private ended(call: ToolCallState, result: AgentToolResult<unknown>, isError: boolean, status?: ToolCallStatus): ToolCallState {
		const open = call.status === "awaiting_approval" ? this.answered(call) : call;
		const blocked = this.refused.delete(call.id) && isError && call.startedAt === undefined;
		return { ...open, status: status ?? (blocked ? "blocked" : isError ? "error" : "done"), endedAt: this.now(), result };
	}

	/** A run that ended without a call's end (an abort, a failure): the call must not look as if it still worked. */
	private closeUnsettled(): readonly ChangeEvent[] {
		const changes: ChangeEvent[] = [];
		for (const call of this.calls.values()) {
			if (isSettledCall(call)) continue;
			const text = call.status === "queued" ? NOT_RUN : INTERRUPTED;
			changes.push(...this.set(this.ended(call, { content: [{ type: "text", text }], details: undefined }, true, "error")));
		}
		return changes;
	}

	private forgetSettled(): void {
		for (const [id, call] of this.calls) {
			if (!isSettledCall(call)) continue;
			this.calls.delete(id);
			this.refused.delete(id);
		}
	}

	private change(id: string, next: (call: ToolCallState) => ToolCallState | undefined): readonly ChangeEvent[] {
		const call = this.calls.get(id);
		const changed = call && next(call);
		return changed ? this.set(changed) : NONE;
	}

	private set(call: ToolCallState): ChangeEvent[] {
		this.calls.set(call.id, call);
		return [{ type: "tool_call_changed", call }];
	}
}
