// The session's hook chains in a real AgentSession, against the scripted model server: what the links decide
// is what the model reads and what the session file keeps.
import { describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../../../src/core/index.js";
import { AgentSession, loadSessionFile } from "../../../src/core/session/index.js";
import { useScriptedServer } from "../../support/use-scripted-server.js";
import { pretendShell, scriptedSessionOptions } from "./session-fixtures.js";
import { tempDir } from "../../support/temp-dir.js";

const server = useScriptedServer();

function makeSession(executed: string[]) {
	const shell = pretendShell(executed, (command) => `ran ${command}; token=sk-live-123`);
	return new AgentSession(scriptedSessionOptions(server, tempDir(), { tools: [shell] }));
}

function toolMessages(request: { body: any }): string[] {
	return request.body.messages.filter((m: any) => m.role === "tool").map((m: any) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

describe("AgentSession hook chains", () => {
	it("composes a policy link and an extension link: one blocks a call, the other rewrites the result the model reads", async () => {
		server.enqueue(
			{
				toolCalls: [
					{ id: "call_rm", name: "shell", arguments: { command: "rm -rf /" } },
					{ id: "call_ls", name: "shell", arguments: { command: "ls" } },
				],
			},
			{ text: "done" },
		);
		const executed: string[] = [];
		const session = makeSession(executed);
		const order: string[] = [];
		// Added first, runs second: the policy stage comes before the extension stage.
		session.hooks.before.add(
			({ toolCall }) => {
				order.push(`extension:${toolCall.id}`);
				return undefined;
			},
			{ stage: "extension", name: "observer" },
		);
		session.hooks.before.add(
			({ toolCall, args }) => {
				order.push(`policy:${toolCall.id}`);
				const command = (args as { command: string }).command;
				return command.startsWith("rm") ? { block: true, reason: "Blocked by policy: rm is not allowed; list the exact files instead." } : undefined;
			},
			{ stage: "policy", name: "no-rm" },
		);
		session.hooks.after.add(
			({ result }) => ({ content: result.content.map((part) => (part.type === "text" ? { ...part, text: part.text.replace(/sk-[\w-]+/g, "[secret]") } : part)) }),
			{ stage: "extension", name: "redact" },
		);

		expect((await session.runPrompt("clean up")).status).toBe("done");

		expect(executed).toEqual(["ls"]);
		// The first block wins: the extension link never sees the blocked call.
		expect(order).toEqual(["policy:call_rm", "policy:call_ls", "extension:call_ls"]);
		expect(toolMessages(server.requests[1]!)).toEqual([
			expect.stringContaining("Blocked by policy: rm is not allowed; list the exact files instead."),
			expect.stringContaining("ran ls; token=[secret]"),
		]);
		const saved = (await loadSessionFile(session.sessionFile!)).entries.flatMap((e) =>
			e.type === "message" && e.message.role === "toolResult" ? [e.message as ToolResultMessage] : [],
		);
		expect(saved.map((m) => [m.toolCallId, m.isError, (m.content[0] as { text: string }).text])).toEqual([
			["call_rm", true, "Blocked by policy: rm is not allowed; list the exact files instead."],
			["call_ls", false, "ran ls; token=[secret]"],
		]);
		session.dispose();
	});

	it("a link removed is no longer asked; assigning agent.beforeToolCall replaces the whole before-chain", async () => {
		server.enqueue(
			{ toolCalls: [{ id: "call_1", name: "shell", arguments: { command: "ls" } }] },
			{ text: "one" },
			{ toolCalls: [{ id: "call_2", name: "shell", arguments: { command: "pwd" } }] },
			{ text: "two" },
		);
		const executed: string[] = [];
		const session = makeSession(executed);
		const remove = session.hooks.before.add(() => ({ block: true, reason: "chain says no" }), { stage: "policy", name: "deny-all" });
		remove();
		await session.runPrompt("first");
		expect(executed).toEqual(["ls"]);

		session.hooks.before.add(() => ({ block: true, reason: "chain says no" }), { stage: "policy", name: "deny-all" });
		session.agent.beforeToolCall = () => undefined;
		await session.runPrompt("second");
		expect(executed).toEqual(["ls", "pwd"]);
		session.dispose();
	});
});
