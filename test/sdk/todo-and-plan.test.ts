// The todo list (todo_write, a session entry that compaction, resume and fork keep) and plan mode (changes refused,
// the model told it plans, present_plan reviewed by the user), on a whole assembled session against the scripted server.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSessionFile } from "../../src/core/session/index.js";
import { SessionManager } from "../../src/sdk/session-manager.js";
import { answerSummaries } from "../core/session/compaction-session-fixtures.js";
import { textOf } from "../core/session/compaction/server-model.js";
import { runLoomInProcess } from "../support/loom-in-process.js";
import { jsonLines, serverFlags } from "../support/loom-process.js";
import { scriptedSdkSession } from "../support/sdk-session.js";
import { ScriptedUi } from "../support/scripted-ui.js";
import { workspace } from "../support/temp-dir.js";
import { useScriptedServer } from "../support/use-scripted-server.js";

const server = useScriptedServer();

const LIST = [
	{ text: "Read the parser", status: "done" },
	{ text: "Fix the tokenizer", status: "in_progress" },
	{ text: "Run the tests", status: "pending" },
];

function systemOf(index: number): string {
	const messages = server.requests[index]!.body.messages as { role: string; content: string }[];
	return messages.find((message) => message.role === "system" || message.role === "developer")?.content ?? "";
}

function toolNames(index: number): string[] {
	return (server.requests[index]!.body.tools ?? []).map((tool: { function: { name: string } }) => tool.function.name);
}

/** The text of the tool result answering `callId` in request `index`. */
function resultText(index: number, callId: string): string {
	const message = (server.requests[index]!.body.messages as { role: string; tool_call_id?: string; content: unknown }[]).find(
		(entry) => entry.role === "tool" && entry.tool_call_id === callId,
	);
	return JSON.stringify(message?.content ?? "");
}

describe("the todo list", () => {
	it("is refused with two items in progress, kept by a compaction's summary in the next request, and back on resume and fork", async () => {
		const ws = workspace();
		const { session } = await scriptedSdkSession(server, { sessionManager: SessionManager.create(ws.cwd) }, ws);
		const events: string[] = [];
		session.subscribe((event) => void (event.type === "todo_changed" && events.push(event.items.map((item) => item.status).join(","))));
		const twoActive = LIST.map((item) => ({ ...item, status: "in_progress" }));
		server.enqueue(
			{ toolCalls: [{ id: "bad", name: "todo_write", arguments: { todos: twoActive } }] },
			{ toolCalls: [{ id: "good", name: "todo_write", arguments: { todos: LIST } }] },
			{ text: "working on the tokenizer" },
			{ text: "second answer" },
		);
		expect((await session.runPrompt("fix the parser")).status).toBe("done");
		expect(toolNames(0)).toContain("todo_write");
		expect(resultText(1, "bad")).toContain("At most one item may be in_progress; items 1 and 2 and 3 are");
		expect(session.todos).toEqual(LIST);
		expect(events).toEqual(["done,in_progress,pending"]);
		expect((await session.runPrompt("and then?")).status).toBe("done");

		answerSummaries(server);
		await session.compact();
		server.enqueue({ text: "after compaction" });
		expect((await session.runPrompt("go on")).status).toBe("done");
		const after = textOf(server.requests.at(-1)!);
		// Turn 1 was summarised (its calls are gone from the request); the summary carries the list.
		expect(after).toContain("SUMMARY 1");
		expect(after).not.toContain('"todo_write"');
		expect(after).toContain("Todo list (current");
		expect(after).toContain("- [>] Fix the tokenizer (in progress)");
		expect(after).toContain("- [x] Read the parser");
		const file = session.sessionFile!;
		session.dispose();

		const resumed = await scriptedSdkSession(server, { sessionManager: SessionManager.open(file) }, ws);
		expect(resumed.session.todos).toEqual(LIST);
		resumed.session.dispose();
		const forked = await scriptedSdkSession(server, { sessionManager: SessionManager.fork(file, ws.cwd) }, ws);
		const opened: unknown[] = [];
		forked.session.subscribe((event) => void (event.type === "session_open" && opened.push(event.todos)));
		await forked.session.start();
		expect(forked.session.todos).toEqual(LIST);
		expect(opened).toEqual([LIST]);
		forked.session.dispose();
	});
});

describe("plan mode", () => {
	const PLAN = "# Plan\n\n1. Add `greet()` to greet.txt\n2. Check it\n";

	it("refuses a write, tells the model it plans, and an approval implements the plan in the same run with its steps as the todo list", async () => {
		const ui = new ScriptedUi().choose("Implement it (auto");
		const ws = workspace();
		const { session } = await scriptedSdkSession(server, { approval: "plan", ui, sessionManager: SessionManager.create(ws.cwd) }, ws);
		server.enqueue(
			{ toolCalls: [{ id: "w1", name: "write", arguments: { path: "greet.txt", content: "too early" } }] },
			{ toolCalls: [{ id: "p1", name: "present_plan", arguments: { plan: PLAN } }] },
			{ toolCalls: [{ id: "w2", name: "write", arguments: { path: "greet.txt", content: "hello" } }] },
			{ text: "done" },
		);
		expect((await session.runPrompt("add greet")).status).toBe("done");
		expect(systemOf(0)).toContain("# Plan mode");
		expect(toolNames(0)).toContain("present_plan");
		expect(resultText(1, "w1")).toContain("Blocked: this session is in plan mode");
		expect(ui.asked[0]).toMatchObject({ title: "The agent's plan: implement it?" });
		expect(ui.asked[0]!.body).toContain("1. Add `greet()` to greet.txt");
		expect(resultText(2, "p1")).toContain("The user approved the plan");
		expect(existsSync(join(ws.cwd, "greet.txt"))).toBe(true);
		expect(session.approvalMode).toBe("auto");
		expect(session.todos).toEqual([
			{ text: "Add `greet()` to greet.txt", status: "pending" },
			{ text: "Check it", status: "pending" },
		]);
		const file = session.sessionFile!;
		session.dispose();
		const entries = (await loadSessionFile(file)).entries;
		expect(entries.find((entry) => entry.type === "plan")).toMatchObject({ plan: PLAN });
		// Out of plan mode, the next prompt's request has neither the note nor the tool.
	});

	it("keeps planning with the user's note, in plan mode still", async () => {
		const ui = new ScriptedUi().choose("Keep planning");
		ui.type("also handle names");
		const { session } = await scriptedSdkSession(server, { approval: "plan", ui });
		server.enqueue({ toolCalls: [{ id: "p1", name: "present_plan", arguments: { plan: PLAN } }] }, { text: "revising" });
		expect((await session.runPrompt("add greet")).status).toBe("done");
		expect(resultText(1, "p1")).toContain("keep planning and said: also handle names");
		expect(session.approvalMode).toBe("plan");
		expect(session.todos).toEqual([]);
		session.dispose();
	});

	it("/plan enters plan mode and starts planning the task; leaving it takes the note and the tool away", async () => {
		const { session } = await scriptedSdkSession(server, { ui: new ScriptedUi() });
		expect(session.tools.map((tool) => tool.name)).not.toContain("present_plan");
		server.enqueue({ text: "exploring" });
		const ran = new Promise<void>((resolve) => session.subscribe((event) => void (event.type === "run_end" && resolve())));
		await session.commands.get("plan")!.handler("add greet", { session, busy: false, notify: () => {} });
		await ran;
		expect(session.approvalMode).toBe("plan");
		expect(systemOf(0)).toContain("# Plan mode");
		expect(toolNames(0)).toContain("present_plan");
		await session.commands.get("approval")!.handler("auto", { session, busy: false, notify: () => {} });
		expect(session.tools.map((tool) => tool.name)).not.toContain("present_plan");
		server.enqueue({ text: "ok" });
		await session.runPrompt("now");
		expect(systemOf(1)).not.toContain("# Plan mode");
		session.dispose();
	});
});

describe("the command line", () => {
	it("print mode with --approval plan prints the plan and exits 0; JSON mode carries the todo list as todo_changed", async () => {
		const ws = workspace();
		const plan = "# Plan\n\n1. Read the code\n2. Change it";
		server.enqueue({ text: "Here is my plan.", toolCalls: [{ id: "p1", name: "present_plan", arguments: { plan } }] });
		const printed = await runLoomInProcess(["-p", "--approval", "plan", ...serverFlags(server.openaiBaseUrl), "plan it"], ws);
		expect(printed.stderr).toBe("");
		expect(printed).toMatchObject({ code: 0, stdout: `${plan}\n` });
		// The run ended with the plan shown: the model was not asked again.
		expect(server.requests).toHaveLength(1);

		server.enqueue({ toolCalls: [{ id: "t1", name: "todo_write", arguments: { todos: LIST } }] }, { text: "listed" });
		const json = await runLoomInProcess(["--mode", "json", ...serverFlags(server.openaiBaseUrl), "list it"], ws);
		expect(json.code).toBe(0);
		expect(jsonLines(json.stdout)).toContainEqual({ type: "todo_changed", items: LIST });
	});
});
