import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../../src/core/engine/agent-types.js";
import { historyItems } from "../../../src/tui/transcript/history.js";
import { builtinTools } from "../../support/builtin-tools.js";
import { assistant, toolCall } from "../events.js";

function toolResult(id: string, name: string, text: string, isError = false, details: unknown = {}): AgentMessage {
	return { role: "toolResult", toolCallId: id, toolName: name, content: [{ type: "text", text }], details, isError, timestamp: 0 };
}

describe("historyItems", () => {
	it("turns a saved conversation into prompts, answers, thinking and finished tool batches", () => {
		const messages: AgentMessage[] = [
			{ role: "user", content: "check the tests", timestamp: 0 },
			assistant([{ type: "thinking", thinking: "Run them." }, { type: "text", text: "Running." }, toolCall("c1", "bash", { command: "npm test" }), toolCall("c2", "read", { path: "a.ts" })]),
			toolResult("c1", "bash", "1 failing", true, { exitCode: 1 }),
			toolResult("c2", "read", "x", false, { startLine: 1, endLine: 1, totalLines: 1 }),
			assistant("One test fails."),
		];
		const items = historyItems(messages, builtinTools);
		expect(items.map((item) => item.kind)).toEqual(["user", "thinking", "assistant", "tools", "assistant"]);
		const tools = items[3];
		if (tools.kind !== "tools") throw new Error("expected tools");
		expect(tools.runs.map((run) => [run.id, run.name, run.status, run.argsPreview, run.resultText, run.untimed])).toEqual([
			["c1", "bash", "error", "npm test", "1 failing", true],
			["c2", "read", "done", "a.ts", "x", true],
		]);
		expect(tools.runs[0].details).toEqual({ exitCode: 1 });
	});

	it("marks a call without a recorded result as an error", () => {
		const items = historyItems([assistant([toolCall("c1", "bash", { command: "sleep 9" })])]);
		const tools = items[0];
		expect(tools.kind === "tools" && tools.runs[0]).toMatchObject({ status: "error", resultText: "No result recorded." });
	});

	it("shows a compaction summary as a notice (the summary kept for Ctrl+O), not as a prompt the user wrote", () => {
		const summary: AgentMessage = { role: "compactionSummary", summary: "## Goal\nship it", tokensBefore: 12345, timestamp: 0 };
		const items = historyItems([summary, { role: "user", content: "go on", timestamp: 0 }]);
		expect(items).toEqual([
			{ kind: "notice", level: "info", text: "Earlier messages were compacted into a summary (12,345 tokens before); the model continues from it.", detail: "## Goal\nship it" },
			{ kind: "user", text: "go on" },
		]);
		const withoutCount = { role: "compactionSummary", summary: "s", timestamp: 0 } as unknown as AgentMessage;
		expect(historyItems([withoutCount])[0]).toMatchObject({ text: "Earlier messages were compacted into a summary; the model continues from it." });
	});

	it("shows only the last messages of a long session and says how many it left out", () => {
		const messages: AgentMessage[] = Array.from({ length: 100 }, (_, i) => ({ role: "user" as const, content: `prompt ${i}`, timestamp: 0 }));
		const items = historyItems(messages, builtinTools, undefined, 10);
		expect(items[0]).toEqual({ kind: "notice", level: "info", text: "90 earlier messages not shown" });
		expect(items.slice(1).map((item) => (item.kind === "user" ? item.text : ""))).toEqual(Array.from({ length: 10 }, (_, i) => `prompt ${90 + i}`));
	});

	it("pairs each result with a call of the message before it, also when the server reuses call ids across turns", () => {
		const messages: AgentMessage[] = [
			{ role: "user", content: "build", timestamp: 0 },
			assistant([toolCall("call_0", "bash", { command: "make" })]),
			toolResult("call_0", "bash", "make: *** no rule", true),
			assistant([toolCall("call_0", "bash", { command: "ls" })]),
			toolResult("call_0", "bash", "Makefile.in", false),
			assistant([toolCall("call_0", "bash", { command: "sleep 9" })]),
		];
		const runs = historyItems(messages, builtinTools).flatMap((item) => (item.kind === "tools" ? item.runs : []));
		expect(runs.map((run) => [run.argsPreview, run.status, run.resultText])).toEqual([
			["make", "error", "make: *** no rule"],
			["ls", "done", "Makefile.in"],
			["sleep 9", "error", "No result recorded."],
		]);
	});
});
