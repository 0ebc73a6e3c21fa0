// End to end over ACP: the approval modes as session modes, the approval question as session/request_permission
// on the tool call it is about (answered both ways, and cancelled), and files read and written through the
// editor when it offers to.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RequestPermissionResponse } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { serverFlags, useScriptedServer } from "../../support/loom-process.js";
import { workspace } from "../../support/temp-dir.js";
import { type AcpClientOptions, type AcpTestClient, initialize, startAcpClient } from "./acp-client.js";

const server = useScriptedServer();

async function askingSession(options: AcpClientOptions = {}) {
	const ws = workspace();
	writeFileSync(join(ws.cwd, "todo.txt"), "buy milk\n");
	const acp = startAcpClient(ws, server.openaiBaseUrl, { args: [...serverFlags(server.openaiBaseUrl), "--approval", "ask"], ...options });
	await initialize(acp);
	const created = await acp.connection.agent.request("session/new", { cwd: ws.cwd, mcpServers: [] });
	return { ws, acp, created, sessionId: created.sessionId };
}

const editTodo = { toolCalls: [{ id: "call_edit", name: "edit", arguments: { path: "todo.txt", edits: [{ oldText: "milk", newText: "bread" }] } }] };

function prompt(acp: AcpTestClient, sessionId: string, text: string) {
	return acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
}

/** The text of the tool result the model was sent last (Chat Completions: a "tool" message). */
function lastToolResult(): string {
	const messages = server.requests.at(-1)!.body.messages as { role: string; content: unknown }[];
	return JSON.stringify(messages.filter((m) => m.role === "tool").at(-1)?.content);
}

const choose =
	(kind: string) =>
	(request: { options: { optionId: string; kind: string }[] }): RequestPermissionResponse => ({
		outcome: { outcome: "selected", optionId: request.options.find((option) => option.kind === kind)!.optionId },
	});

describe("loom acp: approvals", () => {
	it("offers the approval modes as session modes, the command line's mode current", async () => {
		const { acp, created } = await askingSession();
		expect(created.modes).toEqual({
			currentModeId: "ask",
			availableModes: [
				expect.objectContaining({ id: "auto", name: "Auto" }),
				expect.objectContaining({ id: "ask", name: "Ask" }),
				expect.objectContaining({ id: "read-only", name: "Read-only" }),
				expect.objectContaining({ id: "plan", name: "Plan" }),
			],
		});
		await acp.close();
	});

	it("asks permission for an edit on its tool call; allowed once, the edit is made", async () => {
		server.enqueue(editTodo, { text: "Changed." });
		const { ws, acp, sessionId } = await askingSession({ permission: choose("allow_once") });
		expect(await prompt(acp, sessionId, "swap milk for bread")).toEqual({ stopReason: "end_turn" });
		expect(acp.permissionRequests).toHaveLength(1);
		const [request] = acp.permissionRequests;
		expect(request).toMatchObject({ sessionId, toolCall: { toolCallId: "call_edit" } });
		expect(request!.options.map((option) => option.kind)).toEqual(["allow_once", "allow_always", "reject_once"]);
		// The call the question is about shows the change it asks for.
		expect(acp.updates(sessionId)).toContainEqual(
			expect.objectContaining({ sessionUpdate: "tool_call", toolCallId: "call_edit", content: [{ type: "diff", path: join(ws.cwd, "todo.txt"), oldText: "milk", newText: "bread" }] }),
		);
		// The call was announced before the question, runs once allowed, and ends with its diff.
		const statuses = acp
			.updates(sessionId)
			.filter((u) => (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") && u.toolCallId === "call_edit")
			.map((u) => ("status" in u ? u.status : undefined));
		expect(statuses).toEqual(["pending", "in_progress", "completed"]);
		expect(readFileSync(join(ws.cwd, "todo.txt"), "utf8")).toBe("buy bread\n");
		await acp.close();
	});

	it("denied, the edit is not made and the model reads that the user refused it", async () => {
		server.enqueue(editTodo, { text: "Understood." });
		const { ws, acp, sessionId } = await askingSession({ permission: choose("reject_once") });
		expect(await prompt(acp, sessionId, "swap milk for bread")).toEqual({ stopReason: "end_turn" });
		expect(readFileSync(join(ws.cwd, "todo.txt"), "utf8")).toBe("buy milk\n");
		expect(acp.updates(sessionId)).toContainEqual(expect.objectContaining({ sessionUpdate: "tool_call_update", toolCallId: "call_edit", status: "failed" }));
		expect(lastToolResult()).toContain("The user denied this edit call");
		await acp.close();
	});

	it("cancelling while the permission request is open answers the prompt cancelled and changes nothing", async () => {
		server.enqueue(editTodo);
		let answerPermission!: (response: RequestPermissionResponse) => void;
		const { ws, acp, sessionId } = await askingSession({ permission: () => new Promise((resolve) => (answerPermission = resolve)) });
		const answer = prompt(acp, sessionId, "swap milk for bread");
		await expect.poll(() => acp.permissionRequests.length).toBe(1);
		await acp.connection.agent.notify("session/cancel", { sessionId });
		// As the protocol asks of a client: its open permission requests answer "cancelled".
		answerPermission({ outcome: { outcome: "cancelled" } });
		expect(await answer).toEqual({ stopReason: "cancelled" });
		expect(readFileSync(join(ws.cwd, "todo.txt"), "utf8")).toBe("buy milk\n");
		await acp.close();
	});

	it("switches modes: in read-only the edit is refused without asking, and the client hears of the change", async () => {
		server.enqueue(editTodo, { text: "Cannot." });
		const { ws, acp, sessionId } = await askingSession({ permission: choose("allow_once") });
		expect(await acp.connection.agent.request("session/set_mode", { sessionId, modeId: "read-only" })).toEqual({});
		await acp.waitForUpdate(sessionId, (u) => u.sessionUpdate === "current_mode_update" && u.currentModeId === "read-only", "the mode update");
		await prompt(acp, sessionId, "swap milk for bread");
		expect(acp.permissionRequests).toEqual([]);
		expect(readFileSync(join(ws.cwd, "todo.txt"), "utf8")).toBe("buy milk\n");
		await expect(acp.connection.agent.request("session/set_mode", { sessionId, modeId: "yolo" })).rejects.toThrow(/unknown mode "yolo"/);
		await acp.close();
	});
});

describe("loom acp: files through the editor", () => {
	it("reads the editor's unsaved text and writes edits and new files to the editor, not the disk", async () => {
		const ws = workspace();
		const notes = join(ws.cwd, "notes.txt");
		writeFileSync(notes, "saved text\n");
		const buffers = new Map<string, string>([[notes, "unsaved text\n"]]);
		server.enqueue(
			{ toolCalls: [{ id: "call_read", name: "read", arguments: { path: "notes.txt" } }] },
			{ toolCalls: [{ id: "call_edit", name: "edit", arguments: { path: "notes.txt", edits: [{ oldText: "unsaved", newText: "edited" }] } }] },
			{ toolCalls: [{ id: "call_write", name: "write", arguments: { path: "docs/new.md", content: "# New\n" } }] },
			{ text: "All done." },
		);
		const acp = startAcpClient(ws, server.openaiBaseUrl, {
			readTextFile: (path) => buffers.get(path) ?? readFileSync(path, "utf8"),
			writeTextFile: (path, content) => buffers.set(path, content),
		});
		await initialize(acp, { fs: { readTextFile: true, writeTextFile: true } });
		const { sessionId } = await acp.connection.agent.request("session/new", { cwd: ws.cwd, mcpServers: [] });
		expect(await prompt(acp, sessionId, "tidy the notes")).toEqual({ stopReason: "end_turn" });

		expect(JSON.stringify(server.requests[1]!.body.messages)).toContain("unsaved text");
		expect(buffers.get(notes)).toBe("edited text\n");
		expect(buffers.get(join(ws.cwd, "docs", "new.md"))).toBe("# New\n");
		// The editor saves when it decides to: loom wrote nothing itself.
		expect(readFileSync(notes, "utf8")).toBe("saved text\n");
		expect(existsSync(join(ws.cwd, "docs", "new.md"))).toBe(false);
		await acp.close();
	});
});

describe("loom acp: files through the editor, bounded", () => {
	it("reads a file too big for one protocol message from disk, without asking the editor", async () => {
		const ws = workspace();
		const big = join(ws.cwd, "big.log");
		writeFileSync(big, `first line\n${"x".repeat(80)}\n`.repeat(60_000));
		const asked: string[] = [];
		server.enqueue({ toolCalls: [{ id: "call_read", name: "read", arguments: { path: "big.log", limit: 1 } }] }, { text: "ok" });
		const acp = startAcpClient(ws, server.openaiBaseUrl, { readTextFile: (path) => (asked.push(path), ""), writeTextFile: () => {} });
		await initialize(acp, { fs: { readTextFile: true, writeTextFile: true } });
		const { sessionId } = await acp.connection.agent.request("session/new", { cwd: ws.cwd, mcpServers: [] });
		expect(await prompt(acp, sessionId, "read the log")).toEqual({ stopReason: "end_turn" });
		expect(asked).toEqual([]);
		expect(lastToolResult()).toContain("first line");
		await acp.close();
	});
});

describe("loom acp: a project's own code", () => {
	it("asks whether to trust the folder as a permission request on a stand-in call, and on a yes runs the project's extension", async () => {
		const ws = workspace();
		mkdirSync(join(ws.cwd, ".loom", "extensions"), { recursive: true });
		// Slow to load: the prompt sent as soon as the question closes must still wait for it.
		writeFileSync(join(ws.cwd, ".loom", "extensions", "guard.ts"), `await new Promise((resolve) => setTimeout(resolve, 1500));\n${GUARD}`);
		mkdirSync(join(ws.cwd, "data"));
		server.enqueue({ toolCalls: [{ id: "rm", name: "bash", arguments: { command: "rm -rf data" } }] }, { text: "Done." });
		const acp = startAcpClient(ws, server.openaiBaseUrl, { permission: choose("allow_once") });
		await initialize(acp);
		const { sessionId } = await acp.connection.agent.request("session/new", { cwd: ws.cwd, mcpServers: [] });
		await expect.poll(() => acp.permissionRequests.length).toBe(1);
		const [question] = acp.permissionRequests;
		expect(question!.options.map((option) => [option.name, option.kind])).toEqual([
			["Yes, trust this folder and run its code", "allow_once"],
			["No, do not run it", "reject_once"],
		]);
		expect(acp.updates(sessionId)).toContainEqual(
			expect.objectContaining({ sessionUpdate: "tool_call", toolCallId: question!.toolCall.toolCallId, title: "Trust this project folder?", kind: "other" }),
		);
		await acp.waitForUpdate(sessionId, (u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === question!.toolCall.toolCallId, "the question to close");

		await prompt(acp, sessionId, "clean up");
		expect(existsSync(join(ws.cwd, "data"))).toBe(true);
		expect(lastToolResult()).toContain("blocked by the project's guard");
		expect(JSON.parse(readFileSync(join(ws.home, "trust.json"), "utf8"))).toMatchObject({ [ws.cwd]: true });
		await acp.close();
	});
});

const GUARD = `import type { ExtensionAPI } from "loom";

export default function (loom: ExtensionAPI) {
	loom.on("tool_call", (event) => {
		if (event.toolName === "bash" && /rm\\s+-rf/.test(event.input.command)) return { block: true, reason: "rm -rf is blocked by the project's guard." };
		return undefined;
	});
}
`;
