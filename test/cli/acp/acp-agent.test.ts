// End to end: the ACP SDK's client side drives `loom acp` over stdio, against the scripted model server: what an
// editor sees of a prompt (chunks, tool calls, diffs), a cancel, and a session loaded again. The protocol's cases run
// loom in-process through the CLI's I/O seam; the editor going away, SIGTERM, what reaches stdout and stderr, what
// the process loads, the servers that end with it, a missing key (read from the process's environment) and the
// oversized message run the built loom.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { ROOT, runLoom, serverFlags, sessionFiles, sessionMessages, useScriptedServer } from "../../support/loom-process.js";
import { everythingWithPid, pidIn, processesGone } from "../../support/mcp-servers.js";
import { tempDir, type Workspace, workspace } from "../../support/temp-dir.js";
import { mcpConfigText } from "../../../src/cli/acp/acp-agent.js";
import { parseMcpConfig } from "../../../src/plugs/mcp/mcp-config.js";
import { type AcpClientOptions, type AcpTestClient, answerText, initialize, startAcpClient } from "./acp-client.js";

const server = useScriptedServer();

async function newSession(acp: AcpTestClient, cwd: string): Promise<string> {
	const { sessionId } = await acp.connection.agent.request("session/new", { cwd, mcpServers: [] });
	return sessionId;
}

function prompt(acp: AcpTestClient, sessionId: string, text: string) {
	return acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
}

/** A client of a new `loom acp` (in this process unless `inProcess: false`), with one new session in the workspace's folder. */
async function connected(ws: Workspace, options?: AcpClientOptions) {
	const acp = startAcpClient(ws, server.openaiBaseUrl, { inProcess: true, ...options });
	await initialize(acp);
	return { acp, sessionId: await newSession(acp, ws.cwd) };
}

/** Sends a prompt and waits until the run shows `what`; the prompt's answer is still to come. */
async function promptUntil(acp: AcpTestClient, sessionId: string, match: (update: SessionUpdate) => boolean, what: string) {
	const answer = prompt(acp, sessionId, "go");
	await acp.waitForUpdate(sessionId, match, what);
	return { answer };
}

function toolUpdates(updates: readonly SessionUpdate[]) {
	return updates.filter((update) => update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update");
}

describe("loom acp", () => {
	it("says what it offers: images, embedded files, loading and listing sessions", async () => {
		const acp = startAcpClient(workspace(), server.openaiBaseUrl, { inProcess: true });
		const answer = await initialize(acp);
		expect(answer).toMatchObject({
			protocolVersion: 1,
			agentCapabilities: {
				loadSession: true,
				promptCapabilities: { image: true, embeddedContext: true },
				sessionCapabilities: { list: {}, close: {} },
			},
			agentInfo: { name: "loom" },
		});
		expect((await acp.close()).code).toBe(0);
	});

	it("streams a prompt's answer and thinking, and an edit as a tool call that ends with its diff", async () => {
		const ws = workspace();
		writeFileSync(join(ws.cwd, "notes.txt"), "alpha\nbeta\ngamma\n");
		server.enqueue(
			{ thinking: "The second line.", toolCalls: [{ id: "call_edit", name: "edit", arguments: { path: "notes.txt", edits: [{ oldText: "beta", newText: "BETA" }] } }] },
			{ text: "I changed the second line." },
		);
		const { acp, sessionId } = await connected(ws, { args: [...serverFlags(server.openaiBaseUrl), "--thinking", "high"] });
		expect(await prompt(acp, sessionId, "shout the second line")).toEqual({ stopReason: "end_turn" });

		const updates = acp.updates(sessionId);
		expect(answerText(updates)).toBe("I changed the second line.");
		expect(updates.some((u) => u.sessionUpdate === "agent_thought_chunk")).toBe(true);
		const path = join(ws.cwd, "notes.txt");
		expect(toolUpdates(updates)).toEqual([
			{
				sessionUpdate: "tool_call",
				toolCallId: "call_edit",
				title: "Edit notes.txt",
				kind: "edit",
				status: "pending",
				locations: [{ path }],
				// The change asked for, to approve or not before it runs.
				content: [{ type: "diff", path, oldText: "beta", newText: "BETA" }],
				rawInput: { path: "notes.txt", edits: [{ oldText: "beta", newText: "BETA" }] },
			},
			// It runs: the session's state of the call says so.
			{ sessionUpdate: "tool_call_update", toolCallId: "call_edit", status: "in_progress" },
			{
				sessionUpdate: "tool_call_update",
				toolCallId: "call_edit",
				status: "completed",
				content: [{ type: "diff", path, oldText: "alpha\nbeta\ngamma", newText: "alpha\nBETA\ngamma" }],
				locations: [{ path, line: 2 }],
			},
		]);
		// The run ends with how full the context window is.
		expect(updates.at(-1)).toMatchObject({ sessionUpdate: "usage_update", size: expect.any(Number), cost: { currency: "USD" } });
		expect((updates.at(-1) as { used: number }).used).toBeGreaterThan(0);
		// Every update reached the client before the prompt's answer, the thinking first.
		expect(updates.findIndex((u) => u.sessionUpdate === "agent_thought_chunk")).toBeLessThan(updates.findIndex((u) => u.sessionUpdate === "tool_call"));
		expect(readFileSync(path, "utf8")).toBe("alpha\nBETA\ngamma\n");
		// stdout carries the protocol only: one JSON-RPC message a line.
		for (const line of acp.stdout().trimEnd().split("\n")) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
		expect((await acp.close()).stderr).toBe("");
	});

	it("shows a new file's write as a diff from nothing, and a command's output as its content", async () => {
		const ws = workspace();
		server.enqueue(
			{
				toolCalls: [
					{ id: "call_write", name: "write", arguments: { path: "src/new.txt", content: "fresh\n" } },
					{ id: "call_bash", name: "bash", arguments: { command: "echo hello from bash" } },
				],
			},
			{ text: "ok" },
		);
		const { acp, sessionId } = await connected(ws);
		await prompt(acp, sessionId, "write and run");
		const updates = toolUpdates(acp.updates(sessionId));
		const path = join(ws.cwd, "src", "new.txt");
		expect(updates).toContainEqual(expect.objectContaining({ sessionUpdate: "tool_call", toolCallId: "call_write", kind: "edit", locations: [{ path }] }));
		expect(updates).toContainEqual(
			expect.objectContaining({ toolCallId: "call_write", status: "completed", content: [{ type: "diff", path, oldText: null, newText: "fresh\n" }] }),
		);
		expect(updates).toContainEqual(expect.objectContaining({ sessionUpdate: "tool_call", toolCallId: "call_bash", kind: "execute", title: "echo hello from bash" }));
		const bashEnd = updates.find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "call_bash" && u.status === "completed");
		expect(JSON.stringify(bashEnd)).toContain("hello from bash");
		await acp.close();
	});

	it("shows an overwritten file's diff from its old text", async () => {
		const ws = workspace();
		writeFileSync(join(ws.cwd, "config.ini"), "mode=old\n");
		server.enqueue({ toolCalls: [{ id: "call_w", name: "write", arguments: { path: "config.ini", content: "mode=new\n" } }] }, { text: "ok" });
		const { acp, sessionId } = await connected(ws);
		await prompt(acp, sessionId, "switch the mode");
		expect(toolUpdates(acp.updates(sessionId)).at(-1)).toMatchObject({
			status: "completed",
			content: [{ type: "diff", path: join(ws.cwd, "config.ini"), oldText: "mode=old\n", newText: "mode=new\n" }],
		});
		await acp.close();
	});

	it("cancels a running command: the prompt answers cancelled, the call ends failed, the session goes on", async () => {
		const ws = workspace();
		server.enqueue({ toolCalls: [{ id: "call_sleep", name: "bash", arguments: { command: "sleep 30" } }] });
		const { acp, sessionId } = await connected(ws);
		const { answer } = await promptUntil(acp, sessionId, (u) => u.sessionUpdate === "tool_call", "the command's tool call");
		const started = Date.now();
		await acp.connection.agent.notify("session/cancel", { sessionId });
		expect(await answer).toEqual({ stopReason: "cancelled" });
		expect(Date.now() - started).toBeLessThan(10_000);
		expect(toolUpdates(acp.updates(sessionId)).at(-1)).toMatchObject({ toolCallId: "call_sleep", status: "failed" });

		server.enqueue({ text: "Still here." });
		const before = acp.updates(sessionId).length;
		expect(await prompt(acp, sessionId, "are you there?")).toEqual({ stopReason: "end_turn" });
		expect(answerText(acp.updates(sessionId).slice(before))).toBe("Still here.");
		await acp.close();
	});

	it("cancels while the model is still answering", async () => {
		const ws = workspace();
		server.enqueue({ text: "word ", endless: true, chunkDelayMs: 10 });
		const { acp, sessionId } = await connected(ws);
		const { answer } = await promptUntil(acp, sessionId, (u) => u.sessionUpdate === "agent_message_chunk", "the answer to stream");
		await acp.connection.agent.notify("session/cancel", { sessionId });
		expect(await answer).toEqual({ stopReason: "cancelled" });
		await acp.close();
	});

	it("ends when the editor goes away mid-run: the run is stopped and the session file is complete", async () => {
		const ws = workspace();
		server.enqueue({ toolCalls: [{ id: "call_sleep", name: "bash", arguments: { command: "sleep 30" } }] });
		const { acp, sessionId } = await connected(ws, { inProcess: false });
		const { answer } = await promptUntil(acp, sessionId, (u) => u.sessionUpdate === "tool_call", "the command's tool call");
		answer.catch(() => {});
		const started = Date.now();
		expect((await acp.close()).code).toBe(0);
		expect(Date.now() - started).toBeLessThan(10_000);
		const [file] = sessionFiles(ws.home);
		const messages = sessionMessages(file!);
		expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
		expect(messages[2]).toMatchObject({ toolCallId: "call_sleep", isError: true });
	});

	it("exits 143 on SIGTERM, stopping the run first", async () => {
		const ws = workspace();
		server.enqueue({ text: "word ", endless: true, chunkDelayMs: 10 });
		const { acp, sessionId } = await connected(ws, { inProcess: false });
		const { answer } = await promptUntil(acp, sessionId, (u) => u.sessionUpdate === "agent_message_chunk", "the answer to stream");
		answer.catch(() => {});
		acp.loom!.child.kill("SIGTERM");
		expect((await acp.loom!.done).code).toBe(143);
		expect(sessionMessages(sessionFiles(ws.home)[0]!).map((m) => [m.role, m.stopReason])).toEqual([
			["user", undefined],
			["assistant", "aborted"],
		]);
		acp.connection.close();
	});

	it("loads an earlier session: its conversation is replayed, then it goes on from there", async () => {
		const ws = workspace();
		writeFileSync(join(ws.cwd, "a.txt"), "x = 1\n");
		server.enqueue({ toolCalls: [{ id: "call_read", name: "read", arguments: { path: "a.txt" } }] }, { text: "x is one." });
		const first = startAcpClient(ws, server.openaiBaseUrl, { inProcess: true });
		await initialize(first);
		const sessionId = await newSession(first, ws.cwd);
		await prompt(first, sessionId, "what is x?");
		expect((await first.close()).code).toBe(0);

		const second = startAcpClient(ws, server.openaiBaseUrl, { inProcess: true });
		await initialize(second);
		const listed = await second.connection.agent.request("session/list", { cwd: ws.cwd });
		expect(listed.sessions).toEqual([expect.objectContaining({ sessionId, cwd: ws.cwd, title: "what is x?" })]);
		expect(await second.connection.agent.request("session/load", { sessionId, cwd: ws.cwd, mcpServers: [] })).toMatchObject({ modes: { currentModeId: "auto" } });
		const replayed = second.updates(sessionId);
		expect(replayed.map((u) => u.sessionUpdate)).toEqual(["user_message_chunk", "tool_call", "tool_call_update", "agent_message_chunk"]);
		expect(replayed[0]).toMatchObject({ content: { type: "text", text: "what is x?" } });
		expect(replayed[1]).toMatchObject({ toolCallId: "call_read", kind: "read", title: "Read a.txt", locations: [{ path: join(ws.cwd, "a.txt") }] });
		expect(replayed[2]).toMatchObject({ toolCallId: "call_read", status: "completed" });
		expect(JSON.stringify(replayed[2])).toContain("x = 1");
		expect(answerText(replayed)).toBe("x is one.");

		server.enqueue({ text: "Two, now." });
		await prompt(second, sessionId, "and now?");
		// The model is asked with the whole conversation.
		const lastRequest = JSON.stringify(server.requests.at(-1)!.body.messages);
		expect(lastRequest).toContain("what is x?");
		expect(lastRequest).toContain("x is one.");
		await second.close();
	});

	it("offers the session's slash commands, and runs one a prompt names: its notices are the answer, a template's prompt runs", async () => {
		const ws = workspace();
		mkdirSync(join(ws.cwd, ".loom", "prompts"), { recursive: true });
		writeFileSync(join(ws.cwd, ".loom", "prompts", "review.md"), "---\ndescription: review a file\n---\nReview $ARGUMENTS carefully.\n");
		const { acp, sessionId } = await connected(ws);
		const offered = await acp.waitForUpdate(sessionId, (u) => u.sessionUpdate === "available_commands_update", "the command list");
		const names = offered.sessionUpdate === "available_commands_update" ? offered.availableCommands.map((command) => command.name) : [];
		expect(names).toEqual(expect.arrayContaining(["model", "thinking", "compact", "approval", "review"]));
		// The editor opens, loads and shows the conversation itself.
		for (const name of ["new", "resume", "fork", "tree", "rewind"]) expect(names).not.toContain(name);

		expect(await prompt(acp, sessionId, "/approval read-only")).toEqual({ stopReason: "end_turn" });
		expect(answerText(acp.updates(sessionId))).toMatch(/^Approval mode: read-only/);
		expect(acp.updates(sessionId)).toContainEqual({ sessionUpdate: "current_mode_update", currentModeId: "read-only" });
		let before = acp.updates(sessionId).length;
		await prompt(acp, sessionId, "/thinking high");
		expect(answerText(acp.updates(sessionId).slice(before))).toBe("Thinking level: high.");
		expect(server.requests).toHaveLength(0);

		server.enqueue({ text: "Looks fine." });
		before = acp.updates(sessionId).length;
		expect(await prompt(acp, sessionId, "/review src/a.ts")).toEqual({ stopReason: "end_turn" });
		expect(JSON.stringify(server.requests[0]!.body.messages)).toContain("Review src/a.ts carefully.");
		expect(answerText(acp.updates(sessionId).slice(before))).toBe("Looks fine.");
		await acp.close();
	});

	it("keeps stdout for the protocol: an extension's console.log goes to stderr", async () => {
		const ws = workspace();
		writeFileSync(join(ws.cwd, "chatty.ts"), `export default function () {\n\tconsole.log("hello from an extension");\n}\n`);
		const { acp, sessionId } = await connected(ws, { args: [...serverFlags(server.openaiBaseUrl), "-e", "chatty.ts"], inProcess: false });
		expect(await prompt(acp, sessionId, "hi")).toEqual({ stopReason: "end_turn" });
		for (const line of acp.stdout().trimEnd().split("\n")) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
		expect((await acp.close()).stderr).toContain("hello from an extension");
	});

	it("is loaded only by `loom acp`: other runs never load the ACP SDK", async () => {
		const recorder = join(ROOT, "test", "support", "mcp", "record-modules.mjs");
		// Whether any module the run loaded holds the SDK's code (the bundle may put it in any chunk).
		const loadsSdk = async (run: (ws: Workspace, env: Record<string, string>) => Promise<unknown>) => {
			const log = join(tempDir(), "modules.log");
			await run(workspace(), { NODE_OPTIONS: `--import=${recorder}`, LOOM_TEST_MODULE_LOG: log });
			const files = readFileSync(log, "utf8").trimEnd().split("\n").filter((url) => url.startsWith("file:"));
			expect(files.length).toBeGreaterThan(1);
			return files.some((url) => readFileSync(fileURLToPath(url), "utf8").includes("session/request_permission"));
		};
		expect(await loadsSdk((ws, env) => runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], { ...ws, env }))).toBe(false);
		const served = loadsSdk(async (ws, env) => {
			const acp = startAcpClient(ws, server.openaiBaseUrl, { env });
			await initialize(acp);
			await acp.close();
		});
		expect(await served).toBe(true);
	});

	it("starts the MCP servers the editor passes like the user's own: the model calls their tools, and they end with loom", async () => {
		const ws = workspace();
		const dir = tempDir();
		const spec = everythingWithPid(join(dir, "pid")) as { command: string; args: string[] };
		server.enqueue({ toolCalls: [{ id: "call_echo", name: "mcp__everything__echo", arguments: { message: "hello from the editor" } }] }, { text: "done" });
		const acp = startAcpClient(ws, server.openaiBaseUrl);
		const answer = await initialize(acp);
		expect(answer.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: true });
		const { sessionId } = await acp.connection.agent.request("session/new", {
			cwd: ws.cwd,
			mcpServers: [{ name: "everything", command: spec.command, args: spec.args, env: [{ name: "UNUSED", value: "1" }] }],
		});
		expect(await prompt(acp, sessionId, "echo something")).toEqual({ stopReason: "end_turn" });
		expect(server.requests[0]!.body.tools.map((tool: any) => tool.function.name)).toContain("mcp__everything__echo");
		expect(toolUpdates(acp.updates(sessionId))).toContainEqual(
			expect.objectContaining({ toolCallId: "call_echo", status: "completed", content: [{ type: "content", content: { type: "text", text: "Echo: hello from the editor" } }] }),
		);
		expect((await acp.close()).code).toBe(0);
		expect(await processesGone([pidIn(join(dir, "pid"))])).toBe(true);
	});

	it("refuses what it cannot do with a message the editor can show", async () => {
		const ws = workspace();
		const acp = startAcpClient(ws, server.openaiBaseUrl, { args: ["--provider", "openai", "--model", "scripted", "--base-url", server.openaiBaseUrl] });
		await initialize(acp);
		await expect(prompt(acp, "no-such-session", "hi")).rejects.toMatchObject({ code: -32002 });
		await expect(acp.connection.agent.request("session/load", { sessionId: "../../etc/passwd", cwd: ws.cwd, mcpServers: [] })).rejects.toMatchObject({ code: -32002 });
		await expect(acp.connection.agent.request("session/new", { cwd: "relative/dir", mcpServers: [] })).rejects.toMatchObject({ code: -32602 });
		// A model that fails: the prompt answers with the provider's message, and the session goes on.
		const working = await connected(ws);
		server.enqueue({ status: 400, errorMessage: "bad request from the scripted server" });
		await expect(prompt(working.acp, working.sessionId, "hi")).rejects.toThrow(/bad request from the scripted server/);
		server.enqueue({ text: "Fine now." });
		expect(await prompt(working.acp, working.sessionId, "again")).toEqual({ stopReason: "end_turn" });
		await working.acp.close();
		// No API key: the prompt fails saying what to set, and loom goes on serving.
		const sessionId = await newSession(acp, ws.cwd);
		await expect(prompt(acp, sessionId, "hi")).rejects.toThrow(/OPENAI_API_KEY/);
		expect((await acp.close()).code).toBe(0);
	});

	it("answers a message over the size limit with an error to its request, and goes on serving", async () => {
		const ws = workspace();
		const { acp, sessionId } = await connected(ws, { inProcess: false });
		// Over 32 MB, the protocol library's own limit, and over loom's (RPC mode's) of 64 Mi characters.
		const huge = "x".repeat(64 * 1024 * 1024 + 1);
		await expect(prompt(acp, sessionId, huge)).rejects.toMatchObject({ code: -32600, message: expect.stringMatching(/over .* characters was skipped; messages are limited to 67108864/) });
		expect(server.requests).toHaveLength(0);
		server.enqueue({ text: "Still here." });
		expect(await prompt(acp, sessionId, "hi")).toEqual({ stopReason: "end_turn" });
		expect(answerText(acp.updates(sessionId))).toBe("Still here.");
		expect((await acp.close()).code).toBe(0);
	}, 60_000);
});

// The MCP servers an editor passes, read back by loom's own configuration parser.
describe("the editor's MCP servers as configuration", () => {
	it("gives stdio, http and sse servers with their environment and headers", () => {
		const text = mcpConfigText([
			{ name: "files", command: "/usr/bin/fs-server", args: ["--root", "/p"], env: [{ name: "TOKEN", value: "t1" }] },
			{ type: "http", name: "remote", url: "https://mcp.example.com/mcp", headers: [{ name: "Authorization", value: "Bearer x" }] },
			{ type: "sse", name: "old", url: "http://127.0.0.1:9000/sse", headers: [] },
		]);
		const entries = parseMcpConfig(text!, { source: "the editor", env: {}, cwd: "/p" });
		expect(entries.map((entry) => [entry.name, entry.spec])).toEqual([
			["files", expect.objectContaining({ transport: "stdio", command: "/usr/bin/fs-server", args: ["--root", "/p"], env: { TOKEN: "t1" }, cwd: "/p" })],
			["remote", expect.objectContaining({ transport: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer x" } })],
			["old", expect.objectContaining({ transport: "sse", url: "http://127.0.0.1:9000/sse", headers: {} })],
		]);
		expect(mcpConfigText([])).toBeUndefined();
	});
});
