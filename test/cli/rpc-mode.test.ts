// End to end: a client drives `loom --mode rpc` through its stdin and stdout, against the scripted model server: a
// conversation with tools, steering, a second prompt refused, abort, a question asked through the client, images,
// sessions, compaction, bad input, and the end of stdin. The protocol's cases run loom in-process through the CLI's
// I/O seam; the ends of its pipes (stdin closed mid-run, the reader gone) and the README's client run the built loom.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { workspace, type Workspace } from "../support/temp-dir.js";
import { RpcTestClient } from "./rpc/rpc-test-client.js";
import { runLoomInProcess, startLoomInProcess } from "../support/loom-in-process.js";
import {
	cleanEnv,
	LOOM_BIN,
	type LoomResult,
	type LoomRun,
	ROOT,
	serverFlags,
	sessionMessages,
	startLoom,
	useScriptedServer,
} from "../support/loom-process.js";

const server = useScriptedServer();

interface Rpc {
	loom: { done: Promise<LoomResult> };
	client: RpcTestClient;
	ws: Workspace;
}

const rpcArgs = (extraArgs: string[], checkpoints: boolean) => ["--mode", "rpc", ...serverFlags(server.openaiBaseUrl, { checkpoints }), ...extraArgs];

/** `loom --mode rpc` in this process, through the CLI's I/O seam: the protocol and the session behind it. */
function startRpc(extraArgs: string[] = [], ws: Workspace = workspace(), { checkpoints = false } = {}): Rpc {
	const loom = startLoomInProcess(rpcArgs(extraArgs, checkpoints), ws);
	return { loom, client: new RpcTestClient(loom.stdin, loom.stdout), ws };
}

/** The built `loom --mode rpc`: what its process does at the ends of its pipes. */
function startRpcProcess(): Rpc & { loom: LoomRun } {
	const ws = workspace();
	const loom = startLoom(rpcArgs([], false), { ...ws, openStdin: true });
	return { loom, client: new RpcTestClient(loom.child.stdin!, loom.child.stdout!), ws };
}

/** Ends stdin and waits for loom to exit: exit 0, nothing on stderr, every stdout line JSON. */
async function finish({ loom, client }: Rpc): Promise<void> {
	client.end();
	const result = await loom.done;
	expect(client.badLines).toEqual([]);
	expect(result.stderr).toBe("");
	expect(result.code).toBe(0);
}

/** The user messages' texts a model request carried. */
function userTexts(index: number): string[] {
	return server.requests[index].body.messages.filter((message: any) => message.role === "user").map((message: any) => JSON.stringify(message.content));
}

/** Runs a Node script in the workspace with a clean environment plus `env`. */
function runNode(file: string, ws: Workspace, env: Record<string, string>): Promise<LoomResult> {
	const child = spawn(process.execPath, [file], { cwd: ws.cwd, env: cleanEnv(ws.home, env) });
	let stdout = "";
	let stderr = "";
	child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
	child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
	return new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })));
}

// The smallest valid PNG (1x1, transparent).
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

describe("loom --mode rpc", () => {
	it("runs a conversation with tools, takes a steering message mid-tool into the next request, and reports state and messages", async () => {
		server.enqueue(
			{
				toolCalls: [
					{ id: "call_write", name: "write", arguments: { path: "note.txt", content: "hello\n" } },
					{ id: "call_sleep", name: "bash", arguments: { command: "sleep 1; echo slept" } },
				],
			},
			{ text: "Wrote the note. Bye." },
		);
		const rpc = startRpc();
		const { client, ws } = rpc;
		const opened = await client.waitForEvent("session_open");
		expect(opened).toMatchObject({ cwd: ws.cwd, provider: "openai", model: "scripted", messageCount: 0 });

		const response = await client.request({ type: "prompt", message: "write a note, then wait" });
		expect(response).toEqual({ type: "response", id: response.id, command: "prompt", success: true });
		// The prompt's response comes before its run's events (which may still be on their way).
		const responseAt = client.lines.indexOf(response);
		await client.waitForEvent("run_start");
		expect(client.lines.findIndex((line) => line.type === "run_start")).toBe(responseAt + 1);

		await client.waitForLine((line) => line.type === "tool_execution_start" && line.toolCallId === "call_sleep", "bash to start");
		expect((await client.request({ type: "steer", message: "also say bye" })).success).toBe(true);
		expect(await client.waitForEvent("queue_changed")).toEqual({ type: "queue_changed", steering: ["also say bye"], followUp: [] });
		expect(await client.waitForEvent("run_end")).toEqual({ type: "run_end", status: "done" });

		expect(readFileSync(join(ws.cwd, "note.txt"), "utf8")).toBe("hello\n");
		expect(userTexts(1)).toEqual([JSON.stringify("write a note, then wait"), JSON.stringify("also say bye")]);
		const order = client.outline(responseAt + 1);
		expect(order.slice(0, 3)).toEqual(["run_start", "agent_start", "turn_start"]);
		expect(order).toContain("tool_execution_end");
		expect(order.at(-1)).toBe("run_end");

		const state = (await client.request({ type: "get_state" })).data;
		expect(state).toMatchObject({
			model: { id: "scripted", provider: "openai" },
			thinkingLevel: "off",
			toolExecution: "parallel",
			isStreaming: false,
			isCompacting: false,
			sessionId: opened.sessionId,
			sessionFile: opened.file,
			messageCount: 6,
			pendingMessageCount: 0,
			queue: { steering: [], followUp: [] },
		});
		expect(state.model.headers).toBeUndefined();
		expect(state.usage.input).toBeGreaterThan(0);
		expect(state.usage.output).toBeGreaterThan(0);
		expect(state.contextUsage.tokens).toBeGreaterThan(0);
		// The latest batch's calls as the session keeps them; the lines above carry no state of their own.
		expect(state.toolCalls.map((call: any) => [call.id, call.status, call.description.shellCommand])).toEqual([
			["call_write", "done", undefined],
			["call_sleep", "done", "sleep 1; echo slept"],
		]);
		expect(client.lines.some((line) => line.type === "tool_call_changed")).toBe(false);

		const { messages } = (await client.request({ type: "get_messages" })).data;
		expect(messages.map((message: any) => message.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "user", "assistant"]);
		expect((await client.request({ type: "get_last_assistant_text" })).data).toEqual({ text: "Wrote the note. Bye." });
		await finish(rpc);
		expect(sessionMessages(opened.file)).toHaveLength(6);
	});

	it("asks approval for each call in --approval ask: allowed once, then denied with a reason the model reads", async () => {
		server.enqueue(
			{ toolCalls: [{ id: "call_touch", name: "bash", arguments: { command: "touch made-by-loom" } }] },
			{ toolCalls: [{ id: "call_rm", name: "bash", arguments: { command: "rm -rf build" } }] },
			{ text: "I left build alone." },
		);
		const rpc = startRpc(["--approval", "ask"]);
		const { client, ws } = rpc;
		expect((await client.request({ type: "get_state" })).data.approvalMode).toBe("ask");
		await client.request({ type: "prompt", message: "make a file, then clean up" });

		const first = await client.waitForLine((line) => line.type === "extension_ui_request" && line.approval?.toolCallId === "call_touch", "the first approval question");
		expect(first).toMatchObject({
			method: "select",
			title: "Allow bash to run this command?",
			options: ["Allow once", "Allow for this session", "Deny, and say why (optional)"],
			body: [{ text: "touch made-by-loom", style: "plain" }],
			approval: { toolName: "bash", decisions: ["allow_once", "allow_session", "deny"] },
		});
		expect(existsSync(join(ws.cwd, "made-by-loom"))).toBe(false);
		client.send({ type: "approval_response", id: first.id, decision: "allow_once" });

		const second = await client.waitForLine((line) => line.type === "extension_ui_request" && line.approval?.toolCallId === "call_rm", "the second approval question");
		expect(existsSync(join(ws.cwd, "made-by-loom"))).toBe(true);
		client.send({ type: "approval_response", id: second.id, decision: "deny", reason: "keep the build folder" });
		expect(await client.waitForEvent("run_end")).toEqual({ type: "run_end", status: "done" });

		const resolved = client.lines.filter((line) => line.type === "tool_approval_resolved").map((line) => [line.toolCallId, line.outcome]);
		expect(resolved).toEqual([
			["call_touch", "allowed"],
			["call_rm", "denied"],
		]);
		// The reason came with the decision: no question for it reached the client.
		expect(client.lines.filter((line) => line.type === "extension_ui_request" && line.method === "input")).toEqual([]);
		expect(JSON.stringify(server.requests[2].body.messages.at(-1))).toContain("The user denied this bash call and said: keep the build folder");
		await finish(rpc);
	});

	it("refuses a second prompt during a run (naming steer and follow_up), queues a follow_up, and aborts an endless answer", async () => {
		server.enqueue({ text: "word ", endless: true, chunkDelayMs: 5 });
		const rpc = startRpc();
		const { client } = rpc;
		await client.request({ type: "prompt", message: "talk forever" });
		await client.waitForLine((line) => line.type === "message_update" && line.assistantMessageEvent.type === "text_delta", "text to stream");

		const second = await client.request({ type: "prompt", message: "and another thing" });
		expect(second.success).toBe(false);
		expect(second.error).toContain("steer or follow_up");
		expect((await client.request({ type: "follow_up", message: "then stop" })).success).toBe(true);
		expect((await client.request({ type: "get_state" })).data).toMatchObject({ isStreaming: true, pendingMessageCount: 1, queue: { followUp: ["then stop"] } });

		const aborted = await client.request({ type: "abort" });
		expect(aborted).toMatchObject({ command: "abort", success: true });
		expect(client.lines.find((line) => line.type === "run_end")).toMatchObject({ status: "aborted" });
		expect((await client.request({ type: "get_state" })).data.isStreaming).toBe(false);
		await finish(rpc);
	});

	it("answers malformed lines, unknown commands and bad fields with error responses, and keeps serving", async () => {
		const rpc = startRpc();
		const { client } = rpc;
		client.writeLine("this is not json");
		client.writeLine("[1, 2]");
		client.writeLine('{"id": "no-type"}');
		const parseErrors = await client.waitForLine((line) => line.id === "no-type", "the error for a line without a type");
		expect(parseErrors).toMatchObject({ type: "response", command: "parse", success: false });
		expect(client.lines.filter((line) => line.command === "parse").map((line) => line.error)).toEqual([
			expect.stringMatching(/^Failed to parse command: .*Send one JSON object a line\.$/),
			'Failed to parse command: a command is a JSON object such as {"type": "prompt", "message": "..."}.',
			'The command has no "type": say which command it is, e.g. "prompt" or "get_state".',
		]);

		const unknown = await client.request({ type: "make_coffee" });
		expect(unknown).toMatchObject({ command: "make_coffee", success: false });
		expect(unknown.error).toMatch(/^Unknown command "make_coffee"\. Commands: prompt, steer, follow_up, abort, get_state/);
		expect((await client.request({ type: "prompt" })).error).toBe('prompt needs "message" as a string.');
		expect((await client.request({ type: "set_thinking_level", level: "extreme" })).error).toBe(
			'set_thinking_level needs "level" as one of: off, low, medium, high.',
		);
		expect((await client.request({ type: "set_model", modelId: "no-such-model-anywhere" })).success).toBe(false);
		expect((await client.request({ type: "switch_session", sessionPath: "/nowhere/session.jsonl" })).success).toBe(false);
		expect((await client.request({ type: "run_command", name: "nope" })).error).toBe("Unknown command /nope: list_commands lists the commands there are.");

		// Still serving, and still able to run a prompt.
		server.enqueue({ text: "still here" });
		await client.request({ type: "prompt", message: "are you there?" });
		expect(await client.waitForEvent("run_end")).toMatchObject({ status: "done" });
		await finish(rpc);
	});

	it("changes thinking level, tool execution and model, each with its event and in get_state", async () => {
		const rpc = startRpc();
		const { client } = rpc;
		expect((await client.request({ type: "set_thinking_level", level: "high" })).success).toBe(true);
		expect(await client.waitForEvent("thinking_changed")).toEqual({ type: "thinking_changed", level: "high" });
		expect((await client.request({ type: "set_tool_execution", mode: "sequential" })).success).toBe(true);
		const model = await client.request({ type: "set_model", provider: "openai", modelId: "other-model" });
		expect(model.data).toMatchObject({ id: "other-model", provider: "openai", baseUrl: server.openaiBaseUrl });
		expect(await client.waitForEvent("model_changed")).toEqual({ type: "model_changed", provider: "openai", model: "other-model" });
		expect((await client.request({ type: "get_state" })).data).toMatchObject({ thinkingLevel: "high", toolExecution: "sequential", modelId: "other-model" });

		server.enqueue({ text: "from the other model" });
		await client.request({ type: "prompt", message: "hi" });
		await client.waitForEvent("run_end");
		expect(server.requests[0].body.model).toBe("other-model");
		await finish(rpc);
	});

	it("asks the client through the session's ui: /model without an id is a select request, and the chosen option switches the model", async () => {
		const rpc = startRpc();
		const { client } = rpc;
		const { commands } = (await client.request({ type: "list_commands" })).data;
		expect(commands).toContainEqual({ name: "model", description: "switch the model (without an id: choose one)", argsHint: "<id>", source: "builtin" });

		client.send({ id: "pick", type: "run_command", name: "model" });
		const question = await client.waitForLine((line) => line.type === "extension_ui_request" && line.method === "select", "the model picker");
		expect(question.title).toBe("Model (now openai/scripted)");
		const choice = question.options.find((option: string) => option.startsWith("openai/") && option !== "openai/scripted");
		expect(choice).toBeDefined();
		client.send({ type: "extension_ui_response", id: question.id, value: choice });
		const done = await client.waitForLine((line) => line.id === "pick", "run_command's response");
		expect(done).toEqual({ type: "response", id: "pick", command: "run_command", success: true, data: { notices: [] } });
		expect((await client.request({ type: "get_state" })).data.modelId).toBe(choice.slice("openai/".length));

		// A command that reports: its notice comes back in the response.
		const session = await client.request({ type: "run_command", name: "/session" });
		expect(session.data.notices[0]).toMatchObject({ level: "info", text: expect.stringContaining("Messages: 0") });
		// As in Pi, a prompt that names a command runs it (and /new, refused during a run, sees none going on).
		const from = client.lines.length;
		expect((await client.request({ type: "prompt", message: "/new" })).success).toBe(true);
		expect(await client.waitForEvent("session_open", from)).toMatchObject({ messageCount: 0 });
		expect(client.lines.slice(from).filter((line) => line.type === "extension_ui_request")).toEqual([]);
		expect(server.requests).toHaveLength(0);
		await finish(rpc);
	});

	it("asks the client whether to trust the project, then runs its extension, whose command asks the client too", async () => {
		const ws = workspace();
		mkdirSync(join(ws.cwd, ".loom", "extensions"), { recursive: true });
		writeFileSync(
			join(ws.cwd, ".loom", "extensions", "greet.mjs"),
			`export default function (loom) {
	loom.registerCommand("greet", {
		description: "greets someone, if you agree",
		async handler(_args, ctx) {
			const name = await ctx.ui.input("Whom shall I greet?", { placeholder: "a name" });
			const agreed = await ctx.ui.confirm("Greet them?", "Say hello to " + name);
			ctx.notify("info", agreed ? "Hello, " + name + "!" : "No greeting.");
		},
	});
}
`,
		);
		const rpc = startRpc([], ws);
		const { client } = rpc;
		const trust = await client.waitForLine((line) => line.type === "extension_ui_request" && line.method === "select", "the trust question");
		expect(trust).toMatchObject({ title: "Trust this project folder?", options: ["Yes, trust this folder and run its code", "No, do not run it"] });
		expect(JSON.stringify(trust.body)).toContain(".loom/extensions/greet.mjs");
		client.send({ type: "extension_ui_response", id: trust.id, value: "Yes, trust this folder and run its code" });
		await expect
			.poll(async () => (await client.request({ type: "get_commands" })).data.commands.find((command: any) => command.name === "greet"))
			.toMatchObject({ description: "greets someone, if you agree", source: "extension" });

		client.send({ id: "greet", type: "run_command", name: "greet" });
		const input = await client.waitForLine((line) => line.type === "extension_ui_request" && line.method === "input", "the extension's input");
		expect(input).toMatchObject({ title: "Whom shall I greet?", placeholder: "a name" });
		client.send({ type: "extension_ui_response", id: input.id, value: "Ada" });
		const confirm = await client.waitForLine((line) => line.type === "extension_ui_request" && line.method === "confirm", "the extension's confirm");
		expect(confirm).toMatchObject({ title: "Greet them?", message: "Say hello to Ada" });
		client.send({ type: "extension_ui_response", id: confirm.id, confirmed: true });
		const done = await client.waitForLine((line) => line.id === "greet", "the command's response");
		expect(done.data).toEqual({ notices: [{ level: "info", text: "Hello, Ada!" }] });
		await finish(rpc);
	});

	it("sends a prompt's images to the model and refuses an image whose bytes are not what it says", async () => {
		server.enqueue({ text: "a dot" });
		const rpc = startRpc();
		const { client } = rpc;
		const bad = await client.request({ type: "prompt", message: "what is this?", images: [{ type: "image", data: PNG, mimeType: "image/jpeg" }] });
		expect(bad.error).toBe('prompt: images[0] says "image/jpeg" but its bytes are image/png.');
		const notBase64 = await client.request({ type: "prompt", message: "and this?", images: [{ type: "image", data: "%%%", mimeType: "image/png" }] });
		expect(notBase64.error).toBe('prompt: images[0]: "data" is not base64.');

		expect((await client.request({ type: "prompt", message: "what is this?", images: [{ type: "image", data: PNG, mimeType: "image/png" }] })).success).toBe(true);
		await client.waitForEvent("run_end");
		const content = server.requests[0].body.messages.find((message: any) => message.role === "user").content;
		expect(content).toContainEqual({ type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } });
		await finish(rpc);
	});

	it("starts, lists and switches sessions, and compacts the conversation", async () => {
		server.enqueue({ text: "first answer" });
		const rpc = startRpc();
		const { client } = rpc;
		const first = await client.waitForEvent("session_open");
		await client.request({ type: "prompt", message: "first question" });
		await client.waitForEvent("run_end");

		server.enqueue({ text: "The user asked a first question." });
		const compacted = await client.request({ type: "compact", customInstructions: "keep it short" });
		expect(compacted.data).toMatchObject({ summary: expect.stringContaining("The user asked a first question."), tokensBefore: expect.any(Number) });
		expect(compacted.data.firstKeptEntryId).toEqual(expect.any(String));

		const from = client.lines.length;
		expect(await client.request({ type: "new_session" })).toMatchObject({ success: true, data: { cancelled: false } });
		const second = await client.waitForEvent("session_open", from);
		expect(second.sessionId).not.toBe(first.sessionId);
		expect(second.messageCount).toBe(0);

		const { sessions } = (await client.request({ type: "list_sessions" })).data;
		expect(sessions.map((info: any) => info.file)).toContain(first.file);

		const back = client.lines.length;
		expect((await client.request({ type: "switch_session", sessionPath: first.file })).data).toEqual({ cancelled: false });
		expect(await client.waitForEvent("session_open", back)).toMatchObject({ sessionId: first.sessionId });
		await finish(rpc);
	});

	it("rewinds files and conversation to before a prompt, and forks a new session from before one (Pi's fork and get_fork_messages)", async () => {
		server.enqueue(
			{ toolCalls: [{ id: "call_one", name: "write", arguments: { path: "a.txt", content: "one\n" } }] },
			{ text: "Wrote one." },
			{ toolCalls: [{ id: "call_two", name: "write", arguments: { path: "a.txt", content: "two\n" } }] },
			{ text: "Wrote two." },
		);
		const rpc = startRpc([], workspace(), { checkpoints: true });
		const { client, ws } = rpc;
		const opened = await client.waitForEvent("session_open");
		for (const message of ["write one", "write two"]) {
			const from = client.lines.length;
			await client.request({ type: "prompt", message });
			await client.waitForEvent("run_end", from);
		}
		expect(readFileSync(join(ws.cwd, "a.txt"), "utf8")).toBe("two\n");

		const { messages } = (await client.request({ type: "get_fork_messages" })).data;
		expect(messages.map((message: any) => message.text)).toEqual(["write one", "write two"]);
		expect(messages[0].entryId).toEqual(expect.any(String));

		const from = client.lines.length;
		const rewound = await client.request({ type: "rewind", entryId: messages[1].entryId, files: true });
		expect(rewound.data).toMatchObject({ text: "write two", conversation: true, files: { restored: ["a.txt"] } });
		expect(rewound.data.summary).toContain("1 restored");
		expect(readFileSync(join(ws.cwd, "a.txt"), "utf8")).toBe("one\n");
		expect(await client.waitForEvent("session_open", from)).toMatchObject({ reason: "rewind", sessionId: opened.sessionId });
		expect((await client.request({ type: "get_messages" })).data.messages.map((message: any) => message.role)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"assistant",
		]);

		const before = client.lines.length;
		const forked = await client.request({ type: "fork", entryId: messages[0].entryId });
		expect(forked.data).toEqual({ text: "write one", cancelled: false });
		const fork = await client.waitForEvent("session_open", before);
		expect(fork).toMatchObject({ reason: "fork", messageCount: 0 });
		expect(fork.sessionId).not.toBe(opened.sessionId);
		expect((await client.request({ type: "fork", entryId: "nope" })).error).toBe(
			'Entry "nope" is not a prompt of this conversation: get_fork_messages lists them.',
		);
		await finish(rpc);
	});

	it("at the end of stdin mid-run, aborts the run, completes the session file and exits 0", async () => {
		// A call far longer than the bound below, which holds with the headroom of a machine ten times slower.
		server.enqueue({ toolCalls: [{ id: "call_long", name: "bash", arguments: { command: "sleep 600" } }] });
		const rpc = startRpcProcess();
		const { client } = rpc;
		const opened = await client.waitForEvent("session_open");
		await client.request({ type: "prompt", message: "wait a long time" });
		await client.waitForLine((line) => line.type === "tool_execution_start", "bash to start");
		const started = Date.now();
		await finish(rpc);
		expect(Date.now() - started).toBeLessThan(100_000);
		expect(client.lines.at(-1)).toMatchObject({ type: "run_end", status: "aborted" });
		// The call has its result in the file: nothing is left dangling.
		const roles = sessionMessages(opened.file).map((message) => message.role);
		expect(roles).toEqual(["user", "assistant", "toolResult"]);
	});

	it("when the reader goes away mid-run, even one holding the run back, stops the run quietly and exits 141 with the session file complete", async () => {
		server.enqueue({ text: "word ", endless: true });
		const rpc = startRpcProcess();
		const { loom, client } = rpc;
		const opened = await client.waitForEvent("session_open");
		await client.request({ type: "prompt", message: "talk forever" });
		await client.waitForLine((line) => line.type === "message_update", "the answer streaming");
		// Unread lines fill the pipe, so loom is waiting for the reader when it goes.
		loom.child.stdout!.pause();
		await new Promise((resolve) => setTimeout(resolve, 500));
		loom.child.stdout!.destroy();
		const result = await loom.done;
		expect(result.code).toBe(141);
		expect(result.stderr).toBe("");
		expect(sessionMessages(opened.file).at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
	});

	it("sends a running tool's progress as Pi's RPC does: tool_execution_update with the call's args and its whole partialResult so far", async () => {
		const command = "for i in 1 2 3; do echo progress-$i; sleep 0.4; done";
		server.enqueue({ toolCalls: [{ id: "call_loud", name: "bash", arguments: { command } }] }, { text: "Done." });
		const rpc = startRpc();
		const { client } = rpc;
		await client.waitForEvent("session_open");
		await client.request({ type: "prompt", message: "count" });
		await client.waitForLine((line) => line.type === "run_end", "the run's end");
		const updates = client.lines.filter((line) => line.type === "tool_execution_update");
		const progress = updates.map((line) => line.partialResult.content.map((block: any) => block.text).join(""));
		expect(updates.length).toBeGreaterThan(1);
		for (const line of updates) {
			expect(line).toMatchObject({ toolCallId: "call_loud", toolName: "bash", args: { command } });
			expect(line).not.toHaveProperty("delta");
		}
		// Each update holds everything so far, not only what is new.
		expect(progress.at(-1)).toContain("progress-1\nprogress-2");
		for (let i = 1; i < progress.length; i++) expect(progress[i]!.startsWith(progress[i - 1]!.trimEnd())).toBe(true);
		await finish(rpc);
	});

	it("refuses prompt arguments: prompts come on stdin", async () => {
		const ws = workspace();
		const result = await runLoomInProcess(["--mode", "rpc", "hello"], ws);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain('--mode rpc takes its prompts on stdin, as {"type": "prompt", "message": "..."} lines');
		expect(result.stdout).toBe("");
	});

	it("runs the README's Node client as written", async () => {
		const readme = readFileSync(join(ROOT, "README.md"), "utf8");
		const snippet = /<!-- rpc-client -->\s*```js\n([\s\S]*?)```/.exec(readme)?.[1];
		expect(snippet).toBeDefined();
		const ws = workspace();
		const file = join(ws.cwd, "ask.mjs");
		writeFileSync(file, snippet!);
		// `loom` on the PATH is the built one; the model comes from settings and the environment, as a user's would.
		const bin = join(ws.home, "bin");
		mkdirSync(bin);
		symlinkSync(LOOM_BIN, join(bin, "loom"));
		// In approval mode "ask", so the client's approval answer is what lets the command run.
		writeFileSync(join(ws.home, "settings.json"), JSON.stringify({ provider: "openai", model: "scripted", approval: "ask" }));
		server.enqueue({ toolCalls: [{ id: "call_ls", name: "bash", arguments: { command: "touch approved && ls" } }] }, { text: "There is ask.mjs." });
		const result = await runNode(file, ws, { PATH: `${bin}:${process.env.PATH}`, OPENAI_BASE_URL: server.openaiBaseUrl, OPENAI_API_KEY: "test-key" });
		expect(result.stderr).toBe("");
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("There is ask.mjs.\n");
		// The client approved the command, and the model read its output.
		expect(existsSync(join(ws.cwd, "approved"))).toBe(true);
		expect(JSON.stringify(server.requests[1].body.messages)).toContain("ask.mjs");
	});
});
