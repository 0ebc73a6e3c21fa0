// A session's events as ACP `session/update`s: the answer and the thinking as chunks while they stream, each
// tool call announced when it starts, updated with its live output, and finished with its content (diffs for
// edits and writes). Keeps what it must remember of each call between its start and its end.
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { findTool, type SessionEvent, type ToolDefinition } from "../../core/index.js";
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

export class SessionUpdates {
	private readonly calls = new Map<string, CallStart>();

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
			case "tool_execution_start": {
				const call: CallStart = {
					toolCallId: event.toolCallId,
					toolName: event.toolName,
					args: event.args,
					tool: findTool(this.source.tools(), event.toolName),
				};
				const path = wholeFileTarget(call, this.source.cwd);
				if (path !== undefined) call.before = this.source.readBefore(path);
				this.calls.set(call.toolCallId, call);
				return [{ sessionUpdate: "tool_call", ...toolCallStart(call, this.source.cwd) }];
			}
			case "tool_execution_update":
				return [
					{
						sessionUpdate: "tool_call_update",
						toolCallId: event.toolCallId,
						status: "in_progress",
						content: resultContent(event.partialResult.content),
					},
				];
			case "tool_approval_resolved":
				// Allowed: it runs now. Otherwise its end says it was refused.
				return event.outcome === "allowed" || event.outcome === "allowed-for-session"
					? [{ sessionUpdate: "tool_call_update", toolCallId: event.toolCallId, status: "in_progress" }]
					: [];
			case "run_end": {
				// After each prompt's run: how full the context window is, and what the session has cost.
				const { tokens, contextWindow, cost } = this.source.usage();
				return [{ sessionUpdate: "usage_update", used: tokens, size: contextWindow, cost: { amount: cost, currency: "USD" } }];
			}
			case "approval_mode_changed":
				return [{ sessionUpdate: "current_mode_update", currentModeId: event.mode }];
			case "tool_execution_end": {
				const call = this.calls.get(event.toolCallId) ?? { toolCallId: event.toolCallId, toolName: event.toolName, args: undefined, tool: undefined };
				this.calls.delete(event.toolCallId);
				return [finishedCall({ ...call, result: event.result, isError: event.isError }, this.source.cwd)];
			}
			default:
				return [];
		}
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
