// End to end in print mode: approval modes, rules and guards decide which of the scripted model's calls run.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { workspace } from "../support/temp-dir.js";
import { runLoom, serverFlags, useScriptedServer } from "../support/loom-process.js";

const server = useScriptedServer();

/** The text of each tool result the model got back in request `index`, in order. */
function toolResults(index: number): string[] {
	return server.requests[index]!.body.messages.filter((m: any) => m.role === "tool").map((m: any) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

describe("print mode in approval mode ask", () => {
	it("runs what --allow allows, refuses the rest, tells the model why and says on stderr how to allow it", async () => {
		const ws = workspace();
		writeFileSync(join(ws.cwd, "package.json"), JSON.stringify({ scripts: { test: "node -e \"require('fs').writeFileSync('tests-ran.txt', 'yes')\"" } }));
		mkdirSync(join(ws.cwd, "build"));
		server.enqueue(
			{
				toolCalls: [
					{ name: "bash", arguments: { command: "npm test" } },
					{ name: "bash", arguments: { command: "rm -rf build" } },
					{ name: "write", arguments: { path: "notes.md", content: "hello" } },
				],
			},
			{ text: "done" },
		);
		const result = await runLoom(["-p", "--approval", "ask", "--allow", "bash(npm test)", ...serverFlags(server.openaiBaseUrl), "test and tidy"], ws);
		expect(result.code).toBe(0);
		expect(existsSync(join(ws.cwd, "tests-ran.txt"))).toBe(true);
		expect(existsSync(join(ws.cwd, "build"))).toBe(true);
		expect(existsSync(join(ws.cwd, "notes.md"))).toBe(false);
		const [npmTest, remove, write] = toolResults(1);
		expect(npmTest).not.toContain("approval");
		expect(remove).toContain("this bash call needs the user's approval, and nobody can answer here (print mode)");
		expect(remove).toContain("--allow 'bash(rm -rf build)'");
		expect(write).toContain("--allow 'write(./notes.md)'");
		expect(result.stderr).toBe(
			`loom: 2 tool calls were denied: in approval mode "ask" they needed approval, and nobody can answer in print mode. To run them, allow them with --allow 'bash(rm -rf build)' --allow 'write(./notes.md)', or use --approval auto.\n`,
		);
	});
});

describe("guards and deny rules in the default mode", () => {
	it("a deny rule stops the command however it is spelled: wrappers, folders, variables, evaluated code", async () => {
		const ws = workspace();
		const lines = ["env touch p", "command touch q", "/usr/bin/env touch r", "t=touch; $t s", "x='a[$(touch u)]'; echo $((x))"];
		server.enqueue({ toolCalls: lines.map((command) => ({ name: "bash", arguments: { command } })) }, { text: "done" });
		const denied = await runLoom(["-p", "--deny", "bash(touch *)", ...serverFlags(server.openaiBaseUrl), "touch"], ws);
		expect(denied.code).toBe(0);
		for (const file of ["p", "q", "r", "s", "u"]) expect(existsSync(join(ws.cwd, file)), file).toBe(false);
		expect(toolResults(1).every((text) => text.startsWith("Blocked:"))).toBe(true);
	});

	it("in ask mode a bare assignment needs approval: PATH=./tools:$PATH; npm test does not run the project's own npm", async () => {
		const ws = workspace();
		mkdirSync(join(ws.cwd, "tools"));
		writeFileSync(join(ws.cwd, "tools", "npm"), "#!/bin/sh\ntouch own-npm-ran\n", { mode: 0o755 });
		server.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "PATH=./tools:$PATH; npm test" } }] }, { text: "done" });
		const asked = await runLoom(["-p", "--approval", "ask", "--allow", "bash(npm test)", ...serverFlags(server.openaiBaseUrl), "test"], ws);
		expect(asked.code).toBe(0);
		expect(existsSync(join(ws.cwd, "own-npm-ran"))).toBe(false);
		expect(toolResults(1)[0]).toContain("needs the user's approval");
	});

	it("blocks deleting the home folder and a project's deny rule, telling the model what to do instead", async () => {
		const ws = workspace();
		mkdirSync(join(ws.cwd, ".loom"));
		writeFileSync(join(ws.cwd, ".loom", "settings.json"), JSON.stringify({ deny: ["bash(git push*)"], allow: ["bash(rm *)"] }));
		server.enqueue(
			{ toolCalls: [{ name: "bash", arguments: { command: "rm -rf ~" } }, { name: "bash", arguments: { command: "echo ok && git push --force" } }] },
			{ text: "done" },
		);
		const result = await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "clean up"], ws);
		expect(result.code).toBe(0);
		expect(existsSync(join(ws.home, "user-home"))).toBe(true);
		const [remove, push] = toolResults(1);
		expect(remove).toContain("Blocked by loom's recursive-delete guard: `rm -rf ~` would delete the home folder");
		expect(push).toContain("`git push --force` is denied by the rule bash(git push*)");
		// The project's allow rule is not taken, and the user is told so.
		expect(result.stderr).toBe(
			`loom: warning: ${join(ws.cwd, ".loom", "settings.json")}: allow rules (bash(rm *)) ignored: a project's settings may only tighten the user's.\n`,
		);
	});

	it("a malformed --allow is a usage error naming the rule, before anything runs", async () => {
		const ws = workspace();
		const result = await runLoom(["-p", "--allow", "bash(npm test", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain('Invalid rule "bash(npm test" (--allow)');
		expect(server.requests).toHaveLength(0);
	});

	// Claude Code's tool names are capitalized and its prefix form is `:*`: taken as they are, such a rule would name
	// no tool of loom's, and a deny rule brought over from Claude Code would silently deny nothing.
	it("refuses a rule in Claude Code's spelling, from a flag or settings, giving loom's spelling, before anything runs", async () => {
		const ws = workspace();
		const flag = await runLoom(["-p", "--deny", "Bash(git push:*)", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(flag.code).toBe(2);
		expect(flag.stderr.split("\n")[0]).toBe(
			'loom: Invalid rule "Bash(git push:*)" (--deny): it is written for Claude Code (loom\'s tools are bash, read, edit, write, grep, find and ls, and a command prefix ends with " *", not ":*"): write bash(git push *).',
		);
		const settings = join(ws.home, "settings.json");
		writeFileSync(settings, JSON.stringify({ deny: ["Read(./.env)", "Glob"] }));
		const fromSettings = await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(fromSettings.code).toBe(1);
		expect(fromSettings.stderr).toBe(
			`loom: Invalid rule "Read(./.env)" (${settings}): it is written for Claude Code (loom's tools are bash, read, edit, write, grep, find and ls, and a command prefix ends with " *", not ":*"): write read(./.env).\n`,
		);
		expect(server.requests).toHaveLength(0);
	});
});
