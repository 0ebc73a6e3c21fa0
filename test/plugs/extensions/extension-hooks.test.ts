// What extensions do to a real session on the scripted model server: tool_call blocks, tool_result rewrites,
// observers, tools, commands and messages — and what happens when an extension's handler throws or hangs.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../../src/core/index.js";
import type { ExtensionFactory } from "../../../src/plugs/extensions/extension-api.js";
import { systemOf } from "../../core/session/compaction/server-model.js";
import { pretendShell } from "../../core/session/session-fixtures.js";
import { SessionManager } from "../../../src/sdk/session-manager.js";
import { scriptedSdkSession } from "../../support/sdk-session.js";
import { workspace } from "../../support/temp-dir.js";
import { useScriptedServer } from "../../support/use-scripted-server.js";
import { waitFor } from "../../support/wait-for.js";

const server = useScriptedServer();

/** The texts of the tool results the model read in request `index`, in order. */
function toolResults(index: number): string[] {
	return server.requests[index]!.body.messages.filter((message: any) => message.role === "tool").map((message: any) => message.content);
}

const calls = (...commands: string[]) => ({
	toolCalls: commands.map((command, index) => ({ id: `call_${index + 1}`, name: "shell", arguments: { command } })),
});

describe("tool_call", () => {
	it("sees the call's id, name and validated input, and a block's reason is what the model reads", async () => {
		const seen: unknown[] = [];
		const guard: ExtensionFactory = (loom) => {
			loom.on("tool_call", (event) => {
				seen.push({ id: event.toolCallId, name: event.toolName, input: event.input });
				if (event.toolName === "shell" && /rm\s+-rf/.test(event.input.command)) {
					return { block: true, reason: "rm -rf is not allowed; delete the exact files instead." };
				}
				return undefined;
			});
		};
		const ran: string[] = [];
		const { session } = await scriptedSdkSession(server, { tools: [pretendShell(ran)], extensions: [guard] });
		server.enqueue(calls("rm -rf build", "ls"), { text: "ok" });
		await session.prompt("clean");
		expect(ran).toEqual(["ls"]);
		expect(seen).toEqual([
			{ id: "call_1", name: "shell", input: { command: "rm -rf build" } },
			{ id: "call_2", name: "shell", input: { command: "ls" } },
		]);
		expect(toolResults(1)).toEqual(["rm -rf is not allowed; delete the exact files instead.", "ran ls"]);
		session.dispose();
	});

	it("runs extensions in load order and the first block wins; a throwing handler blocks with its error as the reason", async () => {
		const order: string[] = [];
		const first: ExtensionFactory = function first(loom) {
			loom.on("tool_call", (event) => {
				order.push(`first:${event.toolCallId}`);
				const { command } = event.input as { command: string };
				if (command === "b") throw new Error("cannot judge b");
				return command === "a" ? { block: true, reason: "first says no" } : undefined;
			});
		};
		const second: ExtensionFactory = function second(loom) {
			loom.on("tool_call", (event) => {
				order.push(`second:${event.toolCallId}`);
				return { block: true, reason: "second says no" };
			});
		};
		const ran: string[] = [];
		const { session } = await scriptedSdkSession(server, { tools: [pretendShell(ran)], extensions: [first, second] });
		server.enqueue(calls("a", "b", "c"), { text: "ok" });
		await session.prompt("go");
		expect(ran).toEqual([]);
		expect(order).toEqual(["first:call_1", "first:call_2", "first:call_3", "second:call_3"]);
		expect(toolResults(1)).toEqual(["first says no", 'The extension hook "first" failed: cannot judge b', "second says no"]);
		session.dispose();
	});

	it("a handler that ignores the abort is given up, like a stubborn tool, and the run settles", async () => {
		let entered = false;
		const stubborn: ExtensionFactory = (loom) => {
			loom.on("tool_call", () => {
				entered = true;
				return new Promise(() => {});
			});
		};
		const ran: string[] = [];
		const { session } = await scriptedSdkSession(server, { tools: [pretendShell(ran)], extensions: [stubborn] });
		server.enqueue(calls("ls"), { text: "never asked" });
		const outcome = session.runPrompt("go");
		await waitFor(() => entered, Boolean, { what: "the handler to be called" });
		const started = Date.now();
		await session.abort();
		expect((await outcome).status).toBe("aborted");
		expect(Date.now() - started).toBeLessThan(3000);
		expect(ran).toEqual([]);
		session.dispose();
	});
});

describe("tool_result", () => {
	it("replaces content, details and isError field by field, each extension seeing the result as the ones before left it", async () => {
		const seen: unknown[] = [];
		const hint: ExtensionFactory = function hint(loom) {
			loom.on("tool_result", (event) => {
				seen.push({ name: event.toolName, input: event.input, content: event.content, details: event.details, isError: event.isError });
				return { content: [...event.content, { type: "text", text: "hint: run ls first" }], isError: true };
			});
		};
		const audit: ExtensionFactory = function audit(loom) {
			loom.on("tool_result", (event) => {
				seen.push({ isError: event.isError, parts: event.content.length });
				return { details: { audited: true } };
			});
		};
		const ran: string[] = [];
		const { session } = await scriptedSdkSession(server, { tools: [pretendShell(ran)], extensions: [hint, audit] });
		server.enqueue(calls("make"), { text: "ok" });
		await session.prompt("build");
		expect(seen).toEqual([
			{ name: "shell", input: { command: "make" }, content: [{ type: "text", text: "ran make" }], details: { code: 0 }, isError: false },
			{ isError: true, parts: 2 },
		]);
		const result = session.messages.find((message) => message.role === "toolResult");
		expect(result).toMatchObject({ isError: true, details: { audited: true } });
		expect(toolResults(1)).toEqual(["ran make\nhint: run ls first"]);
		session.dispose();
	});

	it("what a handler returns is masked for secrets like any result, in what the model reads and in the session file", async () => {
		const key = "sk-live-0123456789abcdefghij";
		const leaky: ExtensionFactory = (loom) => {
			loom.on("tool_result", (event) => ({ content: [...event.content, { type: "text", text: `debug: key=${key}` }], details: { key } }));
		};
		const ws = workspace();
		const ran: string[] = [];
		const { session } = await scriptedSdkSession(server, { tools: [pretendShell(ran)], extensions: [leaky], apiKey: key, sessionManager: SessionManager.create(ws.cwd) }, ws);
		server.enqueue(calls("env"), { text: "ok" });
		await session.prompt("go");
		expect(toolResults(1)).toEqual(["ran env\ndebug: key=***"]);
		expect(session.messages.find((message) => message.role === "toolResult")).toMatchObject({ details: { key: "***" } });
		expect(readFileSync(session.sessionFile!, "utf8")).not.toContain(key);
		session.dispose();
	});

	it("a throwing handler turns the result into an error result naming the extension", async () => {
		const broken: ExtensionFactory = function broken(loom) {
			loom.on("tool_result", () => {
				throw new Error("formatter crashed");
			});
		};
		const ran: string[] = [];
		const { session } = await scriptedSdkSession(server, { tools: [pretendShell(ran)], extensions: [broken] });
		server.enqueue(calls("ls"), { text: "ok" });
		await session.prompt("go");
		expect(ran).toEqual(["ls"]);
		expect(session.messages.find((message) => message.role === "toolResult")).toMatchObject({ isError: true });
		expect(toolResults(1)).toEqual(['The extension hook "broken" failed: formatter crashed']);
		session.dispose();
	});
});

describe("a malformed tool_result", () => {
	it("is refused with an error naming the extension, and the call keeps the result it had", async () => {
		const answers: Record<string, unknown> = {
			a: { content: [null] },
			b: { content: [{ type: "text", text: 42 }] },
			c: { content: "plain text", details: { kept: false } },
			d: { isError: "yes" },
		};
		const sloppy: ExtensionFactory = function sloppy(loom) {
			loom.on("tool_result", (event) => answers[(event.input as { command: string }).command] as never);
		};
		const ran: string[] = [];
		const { session, ui } = await scriptedSdkSession(server, { tools: [pretendShell(ran)], extensions: [sloppy] });
		server.enqueue(calls("a", "b", "c", "d"), { text: "ok" });
		const outcome = await session.runPrompt("go");
		expect(outcome).toMatchObject({ status: "done" });
		expect(toolResults(1)).toEqual(["ran a", "ran b", "ran c", "ran d"]);
		const results = session.messages.filter((message) => message.role === "toolResult");
		expect(results.map((result) => [result.isError, result.details])).toEqual(Array.from({ length: 4 }, () => [false, { code: 0 }]));
		const errors = ui.notices.filter((notice) => notice.level === "error").map((notice) => notice.text);
		for (const text of errors) expect(text).toMatch(/^The extension hook "sloppy" returned a malformed result \(.+\); the call keeps its own result\.$/);
		expect(errors.map((text) => text.match(/\((.+)\)/)![1]).sort()).toEqual([
			"content is the text \"plain text\", not a list of parts",
			"content[0] is null",
			"content[0].text is a number",
			"isError is a string, not true or false",
		]);
		session.dispose();
	});

	it("from an extension tool's own execute() or update is an error result naming the extension; nothing malformed reaches the session file", async () => {
		const answers: unknown[] = [{ content: [null] }, { content: [{ type: "text", text: 42 }] }, undefined, { content: [{ type: "image", data: 1 }] }];
		const tooled: ExtensionFactory = function tooled(loom) {
			loom.registerTool({
				name: "sloppy",
				label: "Sloppy",
				description: "Answers badly.",
				parameters: Type.Object({ n: Type.Number() }),
				async execute(_id, params, _signal, onUpdate) {
					onUpdate?.({ content: [null], details: undefined } as never);
					return answers[params.n] as never;
				},
			});
		};
		const ws = workspace();
		const { session } = await scriptedSdkSession(server, { extensions: [tooled], sessionManager: SessionManager.create(ws.cwd) }, ws);
		server.enqueue({ toolCalls: answers.map((_, n) => ({ id: `s${n}`, name: "sloppy", arguments: { n } })) }, { text: "ok" });
		expect(await session.runPrompt("go")).toMatchObject({ status: "done" });
		const results = toolResults(1);
		expect(results).toHaveLength(4);
		for (const text of results) expect(text).toMatch(/^Extension tooled: the tool "sloppy" returned a malformed result \(.+\)\.$/);
		expect(results.map((text) => text.match(/\((.+)\)\.$/)![1])).toEqual([
			"content[0] is null",
			"content[0].text is a number",
			"it returned nothing, not an object",
			"content[0].data is a number",
		]);
		// Nothing malformed reached a message or the session file.
		const saved = readFileSync(session.sessionFile!, "utf8").trim().split("\n").map((line) => JSON.parse(line));
		const parts = saved.flatMap((entry) => (entry.message?.role === "toolResult" ? entry.message.content : []));
		expect(parts).toHaveLength(4);
		for (const part of parts) expect(part).toEqual({ type: "text", text: expect.any(String) });
		session.dispose();
	});
});

describe("observers", () => {
	it("see the session's events in order; a throwing observer is reported once and the run goes on", async () => {
		const seen: string[] = [];
		const watcher: ExtensionFactory = function watcher(loom) {
			loom.on("tool_execution_end", (event) => void seen.push(`end:${event.toolCallId}`));
			loom.on("run_end", (event) => void seen.push(`run_end:${event.status}`));
			loom.on("message_update", () => {
				throw new Error("observer bug");
			});
		};
		const ran: string[] = [];
		const { session, ui } = await scriptedSdkSession(server, { tools: [pretendShell(ran)], extensions: [watcher] });
		server.enqueue(calls("ls"), { text: "a long enough answer to stream in several deltas" });
		expect((await session.runPrompt("go")).status).toBe("done");
		await waitFor(() => seen.includes("run_end:done"), Boolean, { what: "run_end to be observed" });
		expect(seen).toEqual(["end:call_1", "run_end:done"]);
		expect(ui.noticeLines().filter((notice) => notice.includes("observer bug"))).toEqual([
			"error: Extension watcher: its message_update handler failed: observer bug (reported once; loom goes on).",
		]);
		session.dispose();
	});

	it("do not take session_open away from the interface that subscribes after them", async () => {
		const seen: string[] = [];
		const { session } = await scriptedSdkSession(server, { extensions: [(loom) => void loom.on("session_open", () => void seen.push("extension"))] });
		await new Promise((resolve) => setTimeout(resolve, 20));
		session.subscribe((event) => {
			if (event.type === "session_open") seen.push("interface");
		});
		await waitFor(() => seen.length === 2, Boolean, { what: "session_open for both" });
		expect(seen).toEqual(["extension", "interface"]);
		session.dispose();
	});
});

describe("registerTool, registerCommand, sendMessage, notify", () => {
	it("a registered tool reaches the model with its prompt guide and runs; a command is in the session's registry", async () => {
		const ran: string[] = [];
		const toolbox: ExtensionFactory = (loom) => {
			loom.registerTool({
				name: "word_count",
				label: "Words",
				description: "Counts words. Long explanation the prompt leaves out.",
				promptGuide: "count the words of a text",
				parameters: Type.Object({ text: Type.String() }),
				executionMode: "sequential",
				async execute(_id, params) {
					ran.push(params.text);
					return { content: [{ type: "text", text: `${params.text.split(/\s+/).length} words` }], details: undefined };
				},
			});
			loom.registerCommand("stats", {
				description: "show word stats",
				handler: (args, ctx) => ctx.notify("info", `stats for ${args}`),
			});
		};
		const { session } = await scriptedSdkSession(server, { extensions: [toolbox] });
		expect(session.tools.map((tool) => tool.name)).toEqual(["read", "bash", "edit", "write", "bash_output", "bash_kill", "ask_user", "todo_write", "task", "word_count"]);
		expect(session.tools.at(-1)?.executionMode).toBe("sequential");
		server.enqueue({ toolCalls: [{ id: "w", name: "word_count", arguments: { text: "one two three" } }] }, { text: "3" });
		await session.prompt("count");
		expect(systemOf(server.requests[0]!)).toContain("- word_count: count the words of a text\n");
		expect(ran).toEqual(["one two three"]);
		expect(toolResults(1)).toEqual(["3 words"]);

		const command = session.commands.get("stats");
		expect(command).toMatchObject({ description: "show word stats", source: "extension" });
		const notices: string[] = [];
		await command!.handler("notes.md", { session, busy: false, notify: (_level, text) => notices.push(text) });
		expect(notices).toEqual(["stats for notes.md"]);
		session.dispose();
		expect(session.commands.get("stats")).toBeUndefined();
	});

	it("a tool whose parameters are plain JSON Schema is checked like an MCP server's: a good call runs, a bad one reads why", async () => {
		const ran: unknown[] = [];
		const plain: ExtensionFactory = (loom) => {
			loom.registerTool({
				name: "greet",
				label: "Greet",
				description: "Greets someone.",
				// What a JavaScript extension written without TypeBox would pass.
				parameters: { type: "object", properties: { name: { type: "string" }, times: { type: "integer", minimum: 1 } }, required: ["name"] } as never,
				async execute(_id, params: any) {
					ran.push(params);
					return { content: [{ type: "text", text: `hello ${params.name}` }], details: undefined };
				},
			});
		};
		const { session } = await scriptedSdkSession(server, { extensions: [plain] });
		server.enqueue(
			{ toolCalls: [{ id: "g1", name: "greet", arguments: { name: "Ada", times: 2 } }, { id: "g2", name: "greet", arguments: { times: 0 } }] },
			{ text: "done" },
		);
		await session.prompt("greet");
		expect(ran).toEqual([{ name: "Ada", times: 2 }]);
		const [good, bad] = toolResults(1);
		expect(good).toBe("hello Ada");
		expect(bad).not.toContain("Unknown type");
		expect(bad).toMatch(/name/);
		// The model is sent the schema as the extension wrote it.
		const sent = server.requests[0]!.body.tools.find((tool: any) => tool.function.name === "greet");
		expect(sent.function.parameters).toEqual({ type: "object", properties: { name: { type: "string" }, times: { type: "integer", minimum: 1 } }, required: ["name"] });
		session.dispose();
	});

	it("the tools option chooses among extension tools too, and a taken tool name fails that extension's load", async () => {
		const tool = (name: string): ToolDefinition => ({
			name,
			label: name,
			description: `${name} tool`,
			parameters: Type.Object({}),
			execute: async () => ({ content: [], details: undefined }),
		});
		const first: ExtensionFactory = function first(loom) {
			loom.registerTool(tool("alpha"));
			loom.registerTool(tool("beta"));
		};
		const clash: ExtensionFactory = function clash(loom) {
			loom.registerTool(tool("gamma"));
			loom.registerTool(tool("read"));
		};
		const ws = workspace();
		const clashFile = join(ws.home, "extensions", "clash.mjs");
		mkdirSync(dirname(clashFile), { recursive: true });
		writeFileSync(
			clashFile,
			`const tool = (name) => ({ name, label: name, description: name, parameters: { type: "object", properties: {} }, execute: async () => ({ content: [], details: undefined }) });
export default function (loom) { loom.registerTool(tool("gamma")); loom.registerTool(tool("read")); }
`,
		);
		const { session, extensions, ui } = await scriptedSdkSession(server, { tools: ["read", "beta"], extensions: [first] }, ws);
		expect(session.tools.map((definition) => definition.name)).toEqual(["read", "beta"]);
		const problem = `A tool named read exists already; ${clashFile} must give its tool another name.`;
		expect(extensions).toEqual({ loaded: ["first"], failed: [{ source: clashFile, error: problem }] });
		expect(ui.noticeLines()).toEqual([`error: Extension ${clashFile} was not loaded: ${problem}`]);
		session.dispose();
		// Named, it must load: the session is not made without it.
		await expect(scriptedSdkSession(server, { extensions: [first, clash] })).rejects.toThrow(
			"extensions: clash was not loaded: A tool named read exists already; clash must give its tool another name.",
		);
	});

	it("sendMessage starts a run while idle and steers a run in progress; notify tells the user", async () => {
		let api: Parameters<ExtensionFactory>[0] | undefined;
		const { session, ui } = await scriptedSdkSession(server, { extensions: [(loom) => void (api = loom)] });
		const runs: string[] = [];
		session.subscribe((event) => {
			if (event.type === "run_end") runs.push(event.status);
		});
		api!.notify("watching", "warning");
		expect(ui.noticeLines()).toEqual(["warning: watching"]);
		api!.sendMessage("from the extension");
		await waitFor(() => runs.length === 1, Boolean, { what: "the message's run" });
		expect(session.messages[0]).toMatchObject({ role: "user", content: "from the extension" });

		server.enqueue({ text: "a slow answer in many small pieces", chunkSize: 2, chunkDelayMs: 20 }, { text: "noted" });
		const run = session.prompt("talk slowly");
		await waitFor(() => session.messages.length === 3, Boolean, { what: "the answer to start" });
		api!.sendMessage("steered in");
		await run;
		const last = server.requests.at(-1)!.body.messages.at(-1);
		expect(last).toMatchObject({ role: "user", content: "steered in" });
		expect(runs).toEqual(["done", "done"]);
		session.dispose();
	});
});
