// RPC mode's questions, on a real session against the scripted model server: an approval question (asked the
// way the approval policy asks, through session.ui) reaches the client as a marked select request and is
// answered with approval_response or, as a Pi client would, with extension_ui_response; a run's abort withdraws
// an open question; the end of stdin answers it with nothing and ends the mode.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../../../src/core/index.js";
import { AgentSession, type ApprovalChoice, type UiChoice } from "../../../src/core/session/index.js";
import { runRpcMode } from "../../../src/cli/rpc/rpc-mode.js";
import { pretendShell, scriptedSessionOptions } from "../../core/session/session-fixtures.js";
import { tempDir } from "../../support/temp-dir.js";
import { useScriptedServer } from "../../support/use-scripted-server.js";
import { RpcTestClient } from "./rpc-test-client.js";

const server = useScriptedServer();

/** A session whose `shell` tool records what ran, and whose every call needs the user's approval. */
function startMode() {
	const executed: string[] = [];
	const shell = pretendShell(executed);
	const session = new AgentSession(scriptedSessionOptions(server, tempDir(), { tools: [shell] }));
	// Asks as the approval policy does: a marked select, then (on deny) a marked input for the reason.
	session.hooks.before.add(
		async ({ toolCall, args }, signal) => {
			const approval = { toolCallId: toolCall.id, toolName: toolCall.name };
			const choices: UiChoice<ApprovalChoice>[] = [
				{ label: "Allow once", value: "once" },
				{ label: "Allow for this session", value: "session", description: "shell(*)" },
				{ label: "Deny", value: "deny" },
			];
			const body = [{ text: (args as { command: string }).command, style: "plain" as const }];
			const answer = await session.ui.select({ title: "Allow shell to run this command?", body, signal, approval }, choices);
			if (answer === "once" || answer === "session") return undefined;
			if (answer === "deny") {
				const reason = await session.ui.input("Why not?", { signal, approval });
				return { block: true, reason: `denied: ${reason ?? "no reason"}` };
			}
			return { block: true, reason: "stopped" };
		},
		{ stage: "policy", name: "approval" },
	);
	const stdin = new PassThrough();
	const stdout = new PassThrough();
	const stderr = new PassThrough();
	let errors = "";
	stderr.setEncoding("utf8").on("data", (chunk) => (errors += chunk));
	const client = new RpcTestClient(stdin, stdout);
	const exit = runRpcMode(session, { stdin, stdout, stderr });
	return { client, session, executed, exit, stderr: () => errors };
}

function toolResults(session: AgentSession): ToolResultMessage[] {
	return session.messages.filter((message): message is ToolResultMessage => message.role === "toolResult");
}

const oneCall = (command: string) => ({ toolCalls: [{ id: "call_1", name: "shell", arguments: { command } }] });

describe("RPC mode's questions", () => {
	it("sends the approval question as a select marked with the call and its decisions; approval_response allow_once lets the call run", async () => {
		server.enqueue(oneCall("ls"), { text: "listed" });
		const { client, executed, exit } = startMode();
		expect((await client.request({ type: "prompt", message: "list" })).success).toBe(true);
		const question = await client.waitForLine((line) => line.type === "extension_ui_request" && line.method === "select", "the approval question");
		expect(question).toMatchObject({
			title: "Allow shell to run this command?",
			options: ["Allow once", "Allow for this session", "Deny"],
			descriptions: ["", "shell(*)", ""],
			body: [{ text: "ls", style: "plain" }],
			approval: { toolCallId: "call_1", toolName: "shell", decisions: ["allow_once", "allow_session", "deny"] },
		});
		expect(question.id).toEqual(expect.any(String));

		client.send({ type: "approval_response", id: question.id, decision: "allow_once" });
		expect(await client.waitForEvent("run_end")).toEqual({ type: "run_end", status: "done" });
		expect(executed).toEqual(["ls"]);
		// An answer gets no response line of its own when it is right.
		expect(client.lines.filter((line) => line.type === "response" && line.command === "approval_response")).toEqual([]);
		client.end();
		expect(await exit).toBe(0);
	});

	it("takes a denial's reason with approval_response and asks the client nothing more", async () => {
		server.enqueue(oneCall("rm -rf build"), { text: "ok, not deleting" });
		const { client, session, executed, exit } = startMode();
		client.send({ type: "prompt", message: "clean up" });
		const question = await client.waitForLine((line) => line.type === "extension_ui_request" && line.approval, "the approval question");
		client.send({ type: "approval_response", id: question.id, decision: "deny", reason: "keep the build" });
		await client.waitForEvent("run_end");
		expect(executed).toEqual([]);
		expect(toolResults(session)[0]).toMatchObject({ isError: true, content: [{ type: "text", text: "denied: keep the build" }] });
		expect(client.lines.filter((line) => line.type === "extension_ui_request" && line.method === "input")).toEqual([]);
		client.end();
		expect(await exit).toBe(0);
	});

	it("lets a Pi client answer the same question with extension_ui_response: the option's label, then the reason as an input", async () => {
		server.enqueue(oneCall("rm -rf build"), { text: "understood" });
		const { client, session, exit } = startMode();
		client.send({ type: "prompt", message: "clean up" });
		const question = await client.waitForLine((line) => line.type === "extension_ui_request" && line.method === "select", "the approval question");
		client.send({ type: "extension_ui_response", id: question.id, value: "Deny" });
		const input = await client.waitForLine((line) => line.type === "extension_ui_request" && line.method === "input", "the reason question");
		expect(input).toMatchObject({ title: "Why not?", approval: { toolCallId: "call_1", toolName: "shell" } });
		client.send({ type: "extension_ui_response", id: input.id, value: "not now" });
		await client.waitForEvent("run_end");
		expect(toolResults(session)[0].content).toEqual([{ type: "text", text: "denied: not now" }]);
		client.end();
		expect(await exit).toBe(0);
	});

	it("answers a wrong answer with an error response and keeps the question open", async () => {
		server.enqueue(oneCall("ls"), { text: "done" });
		const { client, executed, exit } = startMode();
		client.send({ type: "prompt", message: "list" });
		const question = await client.waitForLine((line) => line.type === "extension_ui_request" && line.approval, "the approval question");

		const unknownId = await client.request({ type: "extension_ui_response", value: "Allow once" });
		expect(unknownId).toMatchObject({ command: "extension_ui_response", success: false });
		expect(unknownId.error).toMatch(/^No open request has id "req-\d+": it was answered already or withdrawn\.$/);
		client.send({ type: "extension_ui_response", id: question.id, value: "Maybe" });
		const bad = await client.waitForLine((line) => line.type === "response" && line.id === question.id, "the error response");
		expect(bad).toMatchObject({ command: "extension_ui_response", success: false });
		expect(bad.error).toContain('"Maybe" is not one of the options');
		client.send({ type: "approval_response", id: question.id, decision: "perhaps" });
		const badDecision = await client.waitForLine(
			(line) => line.type === "response" && line.command === "approval_response" && line.success === false,
			"approval_response's error",
		);
		expect(badDecision.error).toBe('approval_response needs "decision" as one of: allow_once, allow_session, deny.');

		client.send({ type: "extension_ui_response", id: question.id, value: "Allow once" });
		await client.waitForEvent("run_end");
		expect(executed).toEqual(["ls"]);
		// Answered: the id is closed now.
		client.send({ type: "approval_response", id: question.id, decision: "deny" });
		const late = await client.waitForLine((line) => line.type === "response" && line.command === "approval_response" && /answered already/.test(line.error), "the late answer's error");
		expect(late.success).toBe(false);
		client.end();
		expect(await exit).toBe(0);
	});

	it("withdraws an open question when the run is aborted, with an extension_ui_cancelled line", async () => {
		server.enqueue(oneCall("ls"));
		const { client, executed, exit } = startMode();
		client.send({ type: "prompt", message: "list" });
		const question = await client.waitForLine((line) => line.type === "extension_ui_request" && line.approval, "the approval question");
		expect((await client.request({ type: "abort" })).success).toBe(true);
		expect(client.lines).toContainEqual({ type: "extension_ui_cancelled", id: question.id });
		expect(await client.waitForEvent("run_end")).toMatchObject({ status: "aborted" });
		expect(executed).toEqual([]);
		client.end();
		expect(await exit).toBe(0);
	});

	it("ends at the end of stdin with a question open: the question gets no answer, the run stops, the mode returns 0", async () => {
		server.enqueue(oneCall("ls"));
		const { client, session, executed, exit, stderr } = startMode();
		client.send({ type: "prompt", message: "list" });
		await client.waitForLine((line) => line.type === "extension_ui_request" && line.approval, "the approval question");
		client.end();
		expect(await exit).toBe(0);
		expect(executed).toEqual([]);
		expect(session.isStreaming).toBe(false);
		expect(client.lines.at(-1)).toMatchObject({ type: "run_end" });
		expect(stderr()).toBe("");
	});
});
