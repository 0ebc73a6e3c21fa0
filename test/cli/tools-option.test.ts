// End to end: which tools a run gets (--tools, checked against the tools the session knows) and how their
// calls run (settings.json's per-tool executionMode), in-process through the CLI's I/O seam.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runLoomInProcess as runLoom } from "../support/loom-in-process.js";
import { serverFlags, sessionFiles, useScriptedServer } from "../support/loom-process.js";
import { workspace } from "../support/temp-dir.js";

const server = useScriptedServer();

/**
 * A bash command that marks itself started, waits up to `seconds` for the other one's mark, and says whether
 * it met it: two such calls both meet only when they run at the same time.
 */
function meet(self: string, other: string, seconds: number): string {
	const tries = Math.round(seconds / 0.05);
	return `touch ${self}.started; for i in $(seq 1 ${tries}); do [ -e ${other}.started ] && break; sleep 0.05; done; [ -e ${other}.started ] && echo "${self} met ${other}" || echo "${self} alone"`;
}

/** The text of each tool result the model got back, in order. */
function toolResults(index: number): string[] {
	return server.requests[index]!.body.messages.filter((m: any) => m.role === "tool").map((m: any) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

describe("--tools", () => {
	it("rejects an unknown tool as a usage error (exit 2) that lists the known ones, before anything runs", async () => {
		const ws = workspace();
		const result = await runLoom(["-p", "--tools", "read,fly,teleport", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(result.code).toBe(2);
		expect(result.stderr.split("\n")[0]).toBe("loom: --tools: unknown tool fly, teleport; choose from read,bash,edit,write,grep,find,ls,bash_output,bash_kill,ask_user,todo_write,web_fetch,web_search,lsp,task.");
		expect(server.requests).toHaveLength(0);
		expect(sessionFiles(ws.home)).toEqual([]);
	});

	it("offers read, bash, edit and write by default; read,grep,find,ls makes a read-only explorer whose searches run", async () => {
		const ws = workspace();
		writeFileSync(join(ws.cwd, ".gitignore"), "build/\n");
		mkdirSync(join(ws.cwd, "build"));
		writeFileSync(join(ws.cwd, "build", "out.js"), "needle in the build\n");
		writeFileSync(join(ws.cwd, "main.ts"), "// the needle\n");
		server.enqueue({ text: "hi" });
		expect((await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws)).code).toBe(0);
		expect(server.requests[0]!.body.tools.map((tool: any) => tool.function.name)).toEqual(["read", "bash", "edit", "write", "bash_output", "bash_kill", "ask_user", "todo_write", "task"]);

		server.enqueue(
			{ toolCalls: [{ name: "grep", arguments: { pattern: "needle" } }, { name: "find", arguments: { pattern: "*.js" } }, { name: "ls", arguments: {} }] },
			{ text: "found it" },
		);
		const result = await runLoom(["-p", "--tools", "read,grep,find,ls", ...serverFlags(server.openaiBaseUrl), "where is the needle?"], ws);
		expect(result.stderr).toBe("");
		expect(result.stdout).toBe("found it\n");
		expect(server.requests[1]!.body.tools.map((tool: any) => tool.function.name)).toEqual(["read", "grep", "find", "ls"]);
		expect(toolResults(2)).toEqual(["main.ts:1:// the needle", "Nothing matches *.js in . (paths .gitignore excludes were not searched).", ".gitignore\nbuild/\nmain.ts"]);
	});
});

describe("settings.json tools.<name>.executionMode", () => {
	it("bash is sequential by default: a batch of two commands runs one after the other", async () => {
		const ws = workspace();
		server.enqueue({ toolCalls: [{ name: "bash", arguments: { command: meet("a", "b", 0.2) } }, { name: "bash", arguments: { command: meet("b", "a", 0.2) } }] }, { text: "done" });
		expect((await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "run both"], ws)).code).toBe(0);
		expect(toolResults(1)).toEqual(["a alone", "b met a"]);
	});

	it('"parallel" for bash lets the commands of one batch overlap', async () => {
		const ws = workspace();
		writeFileSync(join(ws.home, "settings.json"), JSON.stringify({ tools: { bash: { executionMode: "parallel" } } }));
		server.enqueue({ toolCalls: [{ name: "bash", arguments: { command: meet("a", "b", 10) } }, { name: "bash", arguments: { command: meet("b", "a", 10) } }] }, { text: "done" });
		const result = await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "run both"], ws);
		expect(result.stderr).toBe("");
		expect(toolResults(1)).toEqual(["a met b", "b met a"]);
	});

	it("a mode other than parallel or sequential is reported with the field at fault (exit 1)", async () => {
		const ws = workspace();
		writeFileSync(join(ws.home, "settings.json"), JSON.stringify({ tools: { bash: { executionMode: "concurrent" } } }));
		const result = await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain("/tools/bash/executionMode: must be one of parallel, sequential (got \"concurrent\")");
		expect(server.requests).toHaveLength(0);
	});
});
