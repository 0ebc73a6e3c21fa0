// ACP: a subagent's tool calls reach the client as calls of their own, their ids under the parent's task call and
// `_meta.loom` naming that call and the agent.
import { describe, expect, it } from "vitest";
import { SessionUpdates } from "../../../src/cli/acp/session-updates.js";
import type { SessionEvent } from "../../../src/core/index.js";
import { ToolCallStates } from "../../../src/core/session/tool-calls.js";

describe("ACP updates of a subagent's calls", () => {
	it("announces and finishes each child call under the task call's id, tagged with it and the agent", () => {
		const child = new ToolCallStates(() => []);
		const updates = new SessionUpdates({ cwd: "/w", tools: () => [], readBefore: () => undefined, usage: () => ({ tokens: 0, contextWindow: 1, cost: 0 }) });
		const childEvents: SessionEvent[] = [
			{ type: "tool_execution_start", toolCallId: "c1", toolName: "read", args: { path: "a.txt" } },
			{ type: "tool_execution_end", toolCallId: "c1", toolName: "read", isError: false, result: { content: [{ type: "text", text: "alpha" }], details: undefined } },
		];
		const sent = childEvents
			.flatMap((event) => [...child.reduce(event), event])
			.flatMap((event) => updates.translate({ type: "subagent_event", toolCallId: "task-1", agent: "explorer", sessionId: "s", event }));
		expect(sent.map((update) => [update.sessionUpdate, (update as { toolCallId?: string }).toolCallId, (update as { status?: string }).status])).toEqual([
			["tool_call", "task-1/c1", "pending"],
			["tool_call_update", "task-1/c1", "completed"],
		]);
		expect(sent.every((update) => JSON.stringify(update._meta) === JSON.stringify({ loom: { parentToolCallId: "task-1", agent: "explorer" } }))).toBe(true);
		// The child's own stream is not the parent's answer.
		expect(updates.translate({ type: "subagent_event", toolCallId: "task-1", agent: "explorer", sessionId: "s", event: { type: "agent_start" } })).toEqual([]);
	});
});
