// How tool calls look to an ACP client, from the built-in tools' own definitions.
import { describe, expect, it } from "vitest";
import { hunkDiffs, toolCallContent, toolCallStart } from "../../../src/cli/acp/tool-calls.js";
import { replayUpdates } from "../../../src/cli/acp/replay.js";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { SessionUpdates } from "../../../src/cli/acp/session-updates.js";
import { emptyAssistantMessage, findTool, type SessionEvent, type ToolDefinition } from "../../../src/core/index.js";
import { ToolCallStates } from "../../../src/core/session/tool-calls.js";
import { createBuiltinTools } from "../../../src/tools/index.js";

const cwd = "/work/project";
const { known } = createBuiltinTools(cwd);
const start = (toolName: string, args: unknown) => toolCallStart({ toolCallId: "c", toolName, args, tool: findTool(known, toolName) }, cwd);

describe("ACP tool calls", () => {
	it("gives each built-in tool its kind, a title and the files it touches", () => {
		expect(start("read", { path: "src/a.ts", offset: 10, limit: 5 })).toMatchObject({
			kind: "read",
			title: "Read src/a.ts:10-14",
			locations: [{ path: "/work/project/src/a.ts", line: 10 }],
		});
		expect(start("edit", { path: "/abs/b.ts", edits: [] })).toMatchObject({ kind: "edit", title: "Edit /abs/b.ts", locations: [{ path: "/abs/b.ts" }] });
		expect(start("write", { file_path: "c.md", content: "x" })).toMatchObject({ kind: "edit", locations: [{ path: "/work/project/c.md" }] });
		expect(start("bash", { command: "npm test\n  -- --watch" })).toMatchObject({ kind: "execute", title: "npm test -- --watch", locations: [] });
		expect(start("grep", { pattern: "TODO" })).toMatchObject({ kind: "search" });
		expect(start("mcp__github__create_issue", { title: "x" })).toMatchObject({ kind: "other", title: 'mcp__github__create_issue {"title":"x"}' });
	});

	it("asks a tool's definition whether its calls run shell commands, whatever the tool is named", () => {
		const bash = findTool(known, "bash")!;
		const call = (tool: typeof bash) => toolCallStart({ toolCallId: "c", toolName: tool.name, args: { command: "make" }, tool }, cwd);
		expect(call({ ...bash, name: "run_shell" })).toMatchObject({ kind: "execute", title: "make" });
		expect(call({ ...bash, shellCommand: undefined }).kind).toBe("other");
	});

	it("announces the change a call asks for: an edit's replacements, a write's old and new text when the old was read", () => {
		const edit = start("edit", { file_path: "a.txt", old_string: "x", new_string: "y" });
		expect(edit.content).toEqual([{ type: "diff", path: "/work/project/a.txt", oldText: "x", newText: "y" }]);
		const before = { path: "/work/project/b.txt", text: "old\n" };
		const write = toolCallStart({ toolCallId: "w", toolName: "write", args: { path: "b.txt", content: "new\n" }, tool: findTool(known, "write"), before }, cwd);
		expect(write.content).toEqual([{ type: "diff", path: "/work/project/b.txt", oldText: "old\n", newText: "new\n" }]);
		expect(start("write", { path: "b.txt", content: "new\n" }).content).toBeUndefined();
		expect(start("bash", { command: "ls" }).content).toBeUndefined();
	});

	it("turns each hunk of an edit's unified diff into the text it replaced and its replacement", () => {
		const diff = [
			"--- a.txt",
			"+++ a.txt",
			"@@ -1,3 +1,3 @@",
			" one",
			"-two",
			"+TWO",
			" three",
			"@@ -20,2 +20,3 @@",
			" twenty",
			"+twenty-half",
			" twenty-one",
			"",
		].join("\n");
		expect(hunkDiffs("/p/a.txt", diff)).toEqual([
			{ type: "diff", path: "/p/a.txt", oldText: "one\ntwo\nthree", newText: "one\nTWO\nthree" },
			{ type: "diff", path: "/p/a.txt", oldText: "twenty\ntwenty-one", newText: "twenty\ntwenty-half\ntwenty-one" },
		]);
	});

	it("shows a failed call's message, not a diff", () => {
		const call = { toolCallId: "c", toolName: "edit", args: {}, tool: findTool(known, "edit") };
		const result = { content: [{ type: "text" as const, text: "oldText not found" }], details: { path: "/p/a.txt", diff: "@@ -1 +1 @@\n-a\n+b\n" } };
		expect(toolCallContent({ ...call, result, isError: true }, cwd)).toEqual([{ type: "content", content: { type: "text", text: "oldText not found" } }]);
	});

	it("replays a saved turn in order, and a call that never got its result as failed", () => {
		const updates = replayUpdates(
			[
				{ role: "user", content: "hi", timestamp: 0 },
				{
					...emptyAssistantMessage({ api: "openai-completions", provider: "openai", id: "m" }),
					content: [
						{ type: "thinking", thinking: "hmm" },
						{ type: "text", text: "Reading." },
						{ type: "toolCall", id: "c1", name: "read", arguments: { path: "a" } },
						{ type: "toolCall", id: "c2", name: "bash", arguments: { command: "ls" } },
					],
					stopReason: "toolUse",
				},
				{ role: "toolResult", toolCallId: "c1", toolName: "read", content: [{ type: "text", text: "A" }], isError: false, timestamp: 0 },
			],
			known,
			cwd,
		);
		expect(updates.map((u) => `${u.sessionUpdate}${"status" in u ? `:${u.status}` : ""}`)).toEqual([
			"user_message_chunk",
			"agent_thought_chunk",
			"agent_message_chunk",
			"tool_call:pending",
			"tool_call:pending",
			"tool_call_update:completed",
			"tool_call_update:failed",
		]);
	});
});

describe("ACP tool-call updates from the session's call states", () => {
	/** SessionUpdates fed as an ACP session is: each event's tool_call_changed first, from the session's tracker. */
	function updatesFor(events: SessionEvent[], tools: readonly ToolDefinition[] = known) {
		const states = new ToolCallStates(() => tools);
		const updates = new SessionUpdates({ cwd, tools: () => tools, readBefore: () => undefined, usage: () => ({ tokens: 0, contextWindow: 1, cost: 0 }) });
		return events.flatMap((event) => [...states.reduce(event), event].flatMap((next) => updates.translate(next)));
	}
	const toolStart = (id: string, name: string, args: unknown): SessionEvent => ({ type: "tool_execution_start", toolCallId: id, toolName: name, args });
	const toolEnd = (id: string, name: string, isError: boolean, text = "out"): SessionEvent => ({
		type: "tool_execution_end",
		toolCallId: id,
		toolName: name,
		isError,
		result: { content: [{ type: "text", text }], details: undefined },
	});
	const statuses = (updates: SessionUpdate[], id: string) =>
		updates.filter((u) => (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") && u.toolCallId === id).map((u) => (u as { status?: string }).status);

	it("is pending while it prepares or waits for approval, in progress once it runs, then completed", () => {
		const updates = updatesFor([
			toolStart("c1", "bash", { command: "npm test" }),
			{ type: "tool_approval_requested", toolCallId: "c1", toolName: "bash" },
			{ type: "tool_approval_resolved", toolCallId: "c1", toolName: "bash", outcome: "allowed" },
			{ type: "tool_execution_running", toolCallId: "c1", toolName: "bash" },
			{ type: "tool_execution_update", toolCallId: "c1", toolName: "bash", args: {}, partialResult: { content: [{ type: "text", text: "1 passed" }], details: undefined } },
			toolEnd("c1", "bash", false),
		]);
		expect(statuses(updates, "c1")).toEqual(["pending", "in_progress", "in_progress", "completed"]);
		expect(updates[2]).toMatchObject({ content: [{ type: "content", content: { type: "text", text: "1 passed" } }] });
	});

	it("fails a call the policy refused, and says nothing of a call the run ended before it was prepared", () => {
		const message = { ...emptyAssistantMessage({ api: "openai-completions", provider: "p", id: "m" }), stopReason: "toolUse" as const, content: [{ type: "toolCall" as const, id: "x", name: "bash", arguments: { command: "rm -rf /" } }, { type: "toolCall" as const, id: "y", name: "read", arguments: { path: "a" } }] };
		const updates = updatesFor([
			{ type: "message_end", message },
			toolStart("x", "bash", { command: "rm -rf /" }),
			{ type: "tool_approval_resolved", toolCallId: "x", toolName: "bash", outcome: "unanswered" },
			toolEnd("x", "bash", true, "blocked"),
			{ type: "agent_end", messages: [] },
		]);
		expect(statuses(updates, "x")).toEqual(["pending", "failed"]);
		expect(statuses(updates, "y")).toEqual([]);
	});

	it("asks the tool's definition whether a call runs a shell command, not its name", () => {
		const shell: ToolDefinition = { ...findTool(known, "bash")!, name: "sh" };
		const [announced] = updatesFor([toolStart("s", "sh", { command: "make" })], [shell]);
		expect(announced).toMatchObject({ sessionUpdate: "tool_call", kind: "execute", title: "make" });
	});
});
