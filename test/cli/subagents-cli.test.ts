// Subagents from the command line: `--agent <name>` starts the main session as an agent definition (print mode),
// and JSON mode carries a child's events as subagent_event lines tagged with the parent's call id.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runLoomInProcess } from "../support/loom-in-process.js";
import { jsonLines, serverFlags } from "../support/loom-process.js";
import { workspace } from "../support/temp-dir.js";
import { useScriptedServer } from "../support/use-scripted-server.js";

const server = useScriptedServer();

const REVIEWER = `---
name: reviewer
description: Reviews a change and lists what is wrong with it.
tools: Read, Grep
---
You are a strict reviewer. List problems only.
`;

function project() {
	const ws = workspace();
	mkdirSync(join(ws.cwd, ".claude", "agents"), { recursive: true });
	writeFileSync(join(ws.cwd, ".claude", "agents", "reviewer.md"), REVIEWER);
	return ws;
}

function systemOf(index: number): string {
	const messages = server.requests[index]!.body.messages as { role: string; content: string }[];
	return messages.find((message) => message.role === "system" || message.role === "developer")?.content ?? "";
}

function toolNames(index: number): string[] {
	return (server.requests[index]!.body.tools ?? []).map((tool: { function: { name: string } }) => tool.function.name);
}

describe("subagents on the command line", () => {
	it("--agent runs print mode as the definition: its instructions and its tools", async () => {
		const ws = project();
		server.enqueue({ text: "No problems found." });
		const result = await runLoomInProcess(["-p", "--trust", "--agent", "reviewer", ...serverFlags(server.openaiBaseUrl), "review it"], ws);
		expect(result.stderr).toBe("");
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("No problems found.\n");
		expect(systemOf(0)).toContain("You are a strict reviewer.");
		expect(toolNames(0)).toEqual(["read", "grep"]);
	});

	it("--agent naming no definition is a usage error listing the known ones", async () => {
		const result = await runLoomInProcess(["-p", "--trust", "--agent", "nobody", ...serverFlags(server.openaiBaseUrl), "hi"], project());
		expect(result.code).toBe(2);
		expect(result.stderr).toContain('loom: --agent: no agent named "nobody"; choose from reviewer.');
		expect(server.requests).toHaveLength(0);
	});

	it("--worktree runs the session in a new worktree on a loom branch, leaving the tree it started from as it was", async () => {
		const ws = workspace();
		const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: ws.cwd, encoding: "utf8" });
		git("init", "--quiet");
		writeFileSync(join(ws.cwd, "a.txt"), "old\n");
		git("add", ".");
		git("commit", "--quiet", "-m", "start");
		server.enqueue({ toolCalls: [{ name: "write", arguments: { path: "a.txt", content: "new\n" } }] }, { text: "changed" });
		const result = await runLoomInProcess(["-p", "--worktree", "fix-a", ...serverFlags(server.openaiBaseUrl), "change a.txt"], ws);
		expect(result.code).toBe(0);
		const path = join(ws.home, "worktrees", "project", "loom-fix-a");
		expect(result.stderr).toBe(`loom: working in ${path} on the branch loom/fix-a; commit there, then /merge loom/fix-a (or git merge) from your tree.\n`);
		expect(readFileSync(join(path, "a.txt"), "utf8")).toBe("new\n");
		expect(readFileSync(join(ws.cwd, "a.txt"), "utf8")).toBe("old\n");
		expect(git("for-each-ref", "--format=%(refname:short)", "refs/heads/loom/").trim()).toBe("loom/fix-a");
	});

	it("JSON mode writes a child's events nested in subagent_event lines tagged with the task call's id", async () => {
		const ws = project();
		server.setResponder((body) => {
			const prompt = String((body.messages as { role: string; content: unknown }[]).find((message) => message.role === "user")?.content ?? "");
			if (prompt.includes("check the diff")) return { text: "one problem" };
			const answered = (body.messages as { role: string }[]).some((message) => message.role === "tool");
			return answered ? { text: "reviewed" } : { toolCalls: [{ id: "call-review", name: "task", arguments: { agent: "reviewer", prompt: "check the diff" } }] };
		});
		const result = await runLoomInProcess(["--mode", "json", "--trust", ...serverFlags(server.openaiBaseUrl), "review"], ws);
		expect(result.code).toBe(0);
		const lines = jsonLines(result.stdout);
		const nested = lines.filter((line) => line.type === "subagent_event");
		expect(nested.length).toBeGreaterThan(0);
		expect(nested.every((line) => line.toolCallId === "call-review" && line.agent === "reviewer" && typeof line.sessionId === "string")).toBe(true);
		const childEnd = nested.find((line) => line.event.type === "message_end" && line.event.message.role === "assistant");
		expect(childEnd.event.message.content).toEqual([{ type: "text", text: "one problem" }]);
		// Deltas are written without their growing partial message, as the parent's are.
		const delta = nested.find((line) => line.event.type === "message_update");
		expect(delta.event.assistantMessageEvent.partial).toBeUndefined();
		const end = lines.find((line) => line.type === "tool_execution_end" && line.toolCallId === "call-review");
		expect(end.result.content[0].text).toBe("one problem");
		expect(end.result.details.subagent).toMatchObject({ agent: "reviewer" });
	});
});
