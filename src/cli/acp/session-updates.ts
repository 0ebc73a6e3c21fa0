// A session's events as ACP `session/update`s: the answer and the thinking as chunks while they stream, and each
// tool call as the session's state of it says (tool_call_changed): announced when its preparation starts, in
// progress once it runs, updated with its live output, and finished with its content (diffs for edits and writes).
// Remembers of a call only what it sent the client (and a file's text before a write) until the call ends.
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { type AgentToolResult, findTool, type SessionEvent, type TodoItem, type ToolCallState, type ToolDefinition } from "../../core/index.js";
import { type CallStart, changedLine, type FileBefore, resultContent, toolCallContent, toolCallStart, toolLocations, wholeFileTarget } from "./tool-calls.js";

export interface UpdateSource {
	cwd: string;
	/** The tokens the next request will carry against the model's window, and the session's cost so far (US dollars). */
	usage(): { tokens: number; contextWindow: number; cost: number };
	/** The session's tools now (a call's definition is looked up when it starts). */
	tools(): readonly ToolDefinition[];
	/** A file's text before a call replaces it whole (undefined when it does not exist, is not text or is too big to show). */
	readBefore(path: string): FileBefore | undefined;
}

/** What the client was told of a call so far. */
interface Announced {
	call: CallStart;
	running: boolean;
	partial?: AgentToolResult<unknown>;
}

export class SessionUpdates {
	private readonly calls = new Map<string, Announced>();

	constructor(private readonly source: UpdateSource) {}

	/** The updates one event makes (none for most). */
	translate(event: SessionEvent): SessionUpdate[] {
		switch (event.type) {
			case "message_update": {
				const streamed = event.assistantMessageEvent;
				if (streamed.type === "text_delta") return [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: streamed.delta } }];
				if (streamed.type === "thinking_delta") return [{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: streamed.delta } }];
				return [];
			}
			case "tool_call_changed":
				return this.callUpdates(event.call);
			case "subagent_event":
				return this.childUpdates(event);
			case "run_end": {
				// After each prompt's run: how full the context window is, and what the session has cost.
				const { tokens, contextWindow, cost } = this.source.usage();
				return [{ sessionUpdate: "usage_update", used: tokens, size: contextWindow, cost: { amount: cost, currency: "USD" } }];
			}
			case "approval_mode_changed":
				return [{ sessionUpdate: "current_mode_update", currentModeId: event.mode }];
			case "todo_changed":
				return [planUpdate(event.items)];
			case "session_open":
				// A resumed or rewound conversation's list replaces whatever the client shows.
				return event.todos ? [planUpdate(event.todos)] : [];
			default:
				return [];
		}
	}

	/**
	 * A subagent's tool calls as calls of their own, their ids prefixed with the parent's task call's
	 * ("<task call id>/<child call id>") and `_meta.loom` naming that call and the agent; the child's text stays in
	 * the task call's result.
	 */
	private childUpdates(event: Extract<SessionEvent, { type: "subagent_event" }>): SessionUpdate[] {
		const inner = event.event;
		if (inner.type === "subagent_event") return this.childUpdates({ ...inner, toolCallId: `${event.toolCallId}/${inner.toolCallId}` });
		if (inner.type !== "tool_call_changed") return [];
		const meta = { loom: { parentToolCallId: event.toolCallId, agent: event.agent } };
		return this.callUpdates({ ...inner.call, id: `${event.toolCallId}/${inner.call.id}` }).map((update) => ({ ...update, _meta: meta }) as SessionUpdate);
	}

	/** The updates a call's new state makes: none while it is queued or waits for an answer. */
	private callUpdates(state: ToolCallState): SessionUpdate[] {
		const known = this.calls.get(state.id);
		if (state.status === "done" || state.status === "error" || state.status === "blocked") {
			this.calls.delete(state.id);
			// A call the run ended before its turn was never announced: nothing to finish.
			if (!known && state.preparingAt === undefined) return [];
			const call = known?.call ?? this.callStart(state);
			const result = state.result ?? { content: [], details: undefined };
			return [finishedCall({ ...call, result, isError: state.status !== "done" }, this.source.cwd)];
		}
		if (state.status === "queued") return [];
		const updates: SessionUpdate[] = [];
		let announced = known;
		if (!announced) {
			const call = this.callStart(state);
			const path = wholeFileTarget(call, this.source.cwd);
			if (path !== undefined) call.before = this.source.readBefore(path);
			announced = { call, running: false };
			this.calls.set(state.id, announced);
			updates.push({ sessionUpdate: "tool_call", ...toolCallStart(call, this.source.cwd) });
		}
		if (state.status !== "running") return updates;
		if (!announced.running) {
			announced.running = true;
			if (!state.partialResult) updates.push({ sessionUpdate: "tool_call_update", toolCallId: state.id, status: "in_progress" });
		}
		if (state.partialResult && state.partialResult !== announced.partial) {
			announced.partial = state.partialResult;
			updates.push({ sessionUpdate: "tool_call_update", toolCallId: state.id, status: "in_progress", content: resultContent(state.partialResult.content) });
		}
		return updates;
	}

	private callStart(state: ToolCallState): CallStart {
		return { toolCallId: state.id, toolName: state.name, args: state.args, tool: findTool(this.source.tools(), state.name), description: state.description };
	}
}

/** The `tool_call_update` that ends a call: its status, its content, and the line an edit changed first. */
export function finishedCall(call: Parameters<typeof toolCallContent>[0], cwd: string): SessionUpdate {
	const line = changedLine(call);
	const locations = toolLocations(call, cwd);
	return {
		sessionUpdate: "tool_call_update",
		toolCallId: call.toolCallId,
		status: call.isError ? "failed" : "completed",
		content: toolCallContent(call, cwd),
		...(line !== undefined && locations.length === 1 ? { locations: [{ path: locations[0]!.path, line }] } : {}),
	};
}

/** The todo list as ACP's plan: the whole list each time (the client replaces its own), every entry of equal priority. */
export function planUpdate(items: readonly TodoItem[]): SessionUpdate {
	return {
		sessionUpdate: "plan",
		entries: items.map((item) => ({ content: item.text, priority: "medium", status: item.status === "done" ? "completed" : item.status })),
	};
}
