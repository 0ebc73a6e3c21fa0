// End to end: `loom --mode json` emits one valid JSON event per line, in the loop's order. The runs go in-process
// through the CLI's I/O seam, but for the missing key (a session reads its keys from the process's environment)
// and the reader closing the pipe, which run the built loom.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { workspace } from "../support/temp-dir.js";
import { runLoomInProcess } from "../support/loom-in-process.js";
import { jsonLines, runLoom, serverFlags, sessionFiles, startLoom, useScriptedServer } from "../support/loom-process.js";

const server = useScriptedServer();

const twoReads = {
	toolCalls: [
		{ id: "call_a", name: "read", arguments: { path: "a.txt" } },
		{ id: "call_b", name: "read", arguments: { path: "b.txt" } },
	],
};

async function runTwoReads(extraArgs: string[]) {
	const ws = workspace();
	writeFileSync(join(ws.cwd, "a.txt"), "alpha\n");
	writeFileSync(join(ws.cwd, "b.txt"), "beta\n");
	server.enqueue(twoReads, { text: "Both read." });
	const result = await runLoomInProcess(["--mode", "json", ...extraArgs, ...serverFlags(server.openaiBaseUrl), "read both files"], ws);
	expect(result.stderr).toBe("");
	expect(result.code).toBe(0);
	return { ws, result, events: jsonLines(result.stdout) };
}

/** Event types with the tool call id or message role, message_update collapsed. */
function outline(events: any[]): string[] {
	const lines: string[] = [];
	for (const event of events) {
		const label = event.toolCallId ? `${event.type}:${event.toolCallId}` : event.message?.role ? `${event.type}:${event.message.role}` : event.type;
		if (label === "message_update" && lines.at(-1) === "message_update") continue;
		lines.push(label);
	}
	return lines;
}

describe("loom --mode json", () => {
	it("writes a session line first, then every event of a two-tool turn in order, each line valid JSON", async () => {
		const { ws, events, result } = await runTwoReads([]);
		// Every line parsed above; the output ends with a newline and has no blank lines.
		expect(result.stdout.endsWith("\n")).toBe(true);
		expect(result.stdout.split("\n").filter((line) => line === "")).toHaveLength(1);
		expect(events[0]).toMatchObject({ type: "session", cwd: ws.cwd, provider: "openai", model: "scripted" });
		expect(events[0].id).toMatch(/^[0-9a-f-]{36}$/);
		expect(events[0].file).toContain(join(ws.home, "sessions"));

		const order = outline(events);
		const ends = order.filter((label) => label.startsWith("tool_execution_end"));
		expect(order).toEqual([
			"session",
			"session_open",
			"run_start",
			"agent_start",
			"turn_start",
			"message_start:user",
			"message_end:user",
			"message_start:assistant",
			"message_update",
			"message_end:assistant",
			"tool_execution_start:call_a",
			"tool_execution_start:call_b",
			// Both calls passed preflight; each says when it begins running.
			"tool_execution_running:call_a",
			"tool_execution_running:call_b",
			...ends,
			"message_start:toolResult",
			"message_end:toolResult",
			"message_start:toolResult",
			"message_end:toolResult",
			"turn_end:assistant",
			"turn_start",
			"message_start:assistant",
			"message_update",
			"message_end:assistant",
			"turn_end:assistant",
			"agent_end",
			"run_end",
		]);
		expect(events.at(-1)).toEqual({ type: "run_end", status: "done" });
		expect([...ends].sort()).toEqual(["tool_execution_end:call_a", "tool_execution_end:call_b"]);
		// Tool results are persisted in source order whatever the completion order.
		const results = events.filter((e) => e.type === "message_end" && e.message.role === "toolResult");
		expect(results.map((e) => e.message.toolCallId)).toEqual(["call_a", "call_b"]);
		expect(results.map((e) => e.message.content[0].text)).toEqual([expect.stringContaining("alpha"), expect.stringContaining("beta")]);
	});

	it("puts only the delta in message_update lines, never the growing message", async () => {
		const ws = workspace();
		const text = "streamed ".repeat(200);
		server.enqueue({ text, chunkSize: 9 });
		const result = await runLoomInProcess(["--mode", "json", ...serverFlags(server.openaiBaseUrl), "talk"], ws);
		const updates = jsonLines(result.stdout).filter((e) => e.type === "message_update");
		expect(updates.length).toBeGreaterThan(150);
		for (const update of updates) {
			expect(update.message).toBeUndefined();
			expect(update.assistantMessageEvent.partial).toBeUndefined();
		}
		const deltas = updates.filter((u) => u.assistantMessageEvent.type === "text_delta").map((u) => u.assistantMessageEvent.delta);
		expect(deltas.join("")).toBe(text);
		// Linear output: the update lines together are a small multiple of the answer, not quadratic in it.
		const updateBytes = result.stdout.split("\n").filter((line) => line.includes('"message_update"')).join("\n").length;
		expect(updateBytes).toBeLessThan(text.length * 20);
	});

	it("puts only the new output in tool_execution_update lines; tool_execution_end keeps the whole result", async () => {
		const ws = workspace();
		const command = "for i in $(seq 1 80); do echo line $i; sleep 0.01; done";
		server.enqueue({ toolCalls: [{ id: "call_loud", name: "bash", arguments: { command } }] }, { text: "Counted." });
		const result = await runLoomInProcess(["--mode", "json", ...serverFlags(server.openaiBaseUrl), "count"], ws);
		expect(result.code).toBe(0);
		const events = jsonLines(result.stdout);
		const updates = events.filter((e) => e.type === "tool_execution_update");
		expect(updates.length).toBeGreaterThan(2);
		for (const update of updates) {
			expect(update).toMatchObject({ toolCallId: "call_loud", toolName: "bash", delta: expect.any(String) });
			expect(update.partialResult).toBeUndefined();
			expect(update.args).toBeUndefined();
		}
		const output = Array.from({ length: 80 }, (_, i) => `line ${i + 1}\n`).join("");
		// Each piece of output once, in order: the deltas joined are the output so far, nothing repeated.
		const streamed = updates.map((u) => u.delta).join("");
		expect(streamed.length).toBeGreaterThan(0);
		expect(output.startsWith(streamed)).toBe(true);
		// The progress text itself (the command's latest lines) follows from the deltas and drops.
		let progress = "";
		for (const update of updates) progress = progress.slice(update.drop ?? 0) + update.delta;
		expect(output.includes(progress)).toBe(true);
		expect(progress.split("\n").length).toBeLessThanOrEqual(51);
		// Past 50 lines the command's live window moved on: its first lines were dropped, not sent again.
		expect(updates.some((u) => u.drop > 0)).toBe(true);
		const end = events.find((e) => e.type === "tool_execution_end");
		expect(end.result.content[0].text).toBe(output.trimEnd());
	});

	it("writes no raw control character, while the parsed events keep the text exactly", async () => {
		const text = "esc \u001b]2;title\u0007 c1 \u009b31m del \u007f end";
		server.enqueue({ text });
		const result = await runLoomInProcess(["--mode", "json", ...serverFlags(server.openaiBaseUrl), "hi"], workspace());
		expect(result.code).toBe(0);
		expect(result.stdout.replaceAll("\n", "")).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
		const end = jsonLines(result.stdout).find((event) => event.type === "message_end" && event.message.role === "assistant");
		expect(end.message.content[0].text).toBe(text);
	});

	it("--toolExecution sequential runs a two-call batch one call at a time", async () => {
		const { events } = await runTwoReads(["--toolExecution", "sequential"]);
		const tools = outline(events).filter((label) => label.startsWith("tool_execution"));
		expect(tools).toEqual([
			"tool_execution_start:call_a",
			"tool_execution_running:call_a",
			"tool_execution_end:call_a",
			"tool_execution_start:call_b",
			"tool_execution_running:call_b",
			"tool_execution_end:call_b",
		]);
	});

	it("takes toolExecution from settings.json, and the flag overrides it", async () => {
		const ws = workspace();
		writeFileSync(join(ws.home, "settings.json"), JSON.stringify({ toolExecution: "sequential" }));
		writeFileSync(join(ws.cwd, "a.txt"), "alpha\n");
		writeFileSync(join(ws.cwd, "b.txt"), "beta\n");
		server.enqueue(twoReads, { text: "ok" }, twoReads, { text: "ok" });
		const fromSettings = await runLoomInProcess(["--mode", "json", ...serverFlags(server.openaiBaseUrl), "go"], ws);
		const overridden = await runLoomInProcess(["--mode", "json", "--toolExecution", "parallel", ...serverFlags(server.openaiBaseUrl), "go"], ws);
		const tools = (stdout: string) => outline(jsonLines(stdout)).filter((label) => label.startsWith("tool_execution"));
		expect(tools(fromSettings.stdout).slice(0, 3)).toEqual(["tool_execution_start:call_a", "tool_execution_running:call_a", "tool_execution_end:call_a"]);
		expect(tools(overridden.stdout).slice(0, 2)).toEqual(["tool_execution_start:call_a", "tool_execution_start:call_b"]);
	});

	it("reports a missing key as a session_error line, on stderr, and exit 1", async () => {
		const ws = workspace();
		const result = await runLoom(["--mode", "json", "--provider", "openai", "hi"], ws);
		expect(result.code).toBe(1);
		const events = jsonLines(result.stdout);
		expect(events.map((e) => e.type)).toEqual(["session", "session_open", "session_error"]);
		expect(events[2].message).toMatch(/OPENAI_API_KEY/);
		expect(result.stderr).toMatch(/OPENAI_API_KEY/);
	});

	it("stops quietly with 141 when the reader closes the pipe, keeping the session file complete", async () => {
		const ws = workspace();
		server.enqueue({ text: "word ", endless: true, chunkDelayMs: 5 });
		const run = startLoom(["--mode", "json", ...serverFlags(server.openaiBaseUrl), "go on"], ws);
		await run.waitForStdout('"text_delta"');
		run.child.stdout!.destroy();
		const result = await run.done;
		expect(result.code).toBe(141);
		expect(result.stderr).toBe("");
		const lines = readFileSync(sessionFiles(ws.home)[0]!, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line));
		expect(lines.at(-1).message).toMatchObject({ role: "assistant", stopReason: "aborted" });
	});
});
