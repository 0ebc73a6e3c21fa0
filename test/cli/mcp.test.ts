// MCP servers through the real loom process: the scripted model calls a server's tools, configured in the
// project's .mcp.json (once trusted, like the project's extensions), loom's home, or --mcp-config; --tools names
// them; failures are told on stderr; no server process outlives loom. One whole run, the signals and what a
// process loads keep the built loom; the other print runs go in-process through the CLI's I/O seam, where the
// session closes its servers as it ends.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { setProjectTrust } from "../../src/core/config/project-trust.js";
import { isAlive } from "../../src/core/lib/process/index.js";
import { commandLine } from "../../src/plugs/mcp/server-label.js";
import { EVERYTHING_ENTRY, everythingStdio, everythingWithPid, filesystemStdio, pidIn, processesGone } from "../support/mcp-servers.js";
import { runLoomInProcess } from "../support/loom-in-process.js";
import { tempDir, workspace } from "../support/temp-dir.js";
import { ROOT, jsonLines, runLoom, serverFlags, startLoom, useScriptedServer } from "../support/loom-process.js";

const server = useScriptedServer();

function configure(file: string, servers: Record<string, unknown>): void {
	writeFileSync(file, JSON.stringify({ mcpServers: servers }, null, 2));
}

/** A project whose .mcp.json holds `servers`, trusted unless said otherwise. */
function project(servers: Record<string, unknown>, trusted = true) {
	const ws = workspace();
	configure(join(ws.cwd, ".mcp.json"), servers);
	if (trusted) setProjectTrust(ws.home, ws.cwd, true);
	return ws;
}

/** stderr without the notice a slow start (a busy machine) may add. */
function quiet(stderr: string): string {
	return stderr.replace(/^loom: Waiting for MCP servers to start: .*\n/gm, "");
}

function toolNames(index: number): string[] {
	return (server.requests[index]!.body.tools ?? []).map((tool: any) => tool.function.name);
}

/** What the model got back from each tool call of the previous turn. */
function toolResults(index: number): unknown[] {
	return server.requests[index]!.body.messages.filter((message: any) => message.role === "tool").map((message: any) => message.content);
}

/** A print-mode run with `servers` configured, which must answer all the same; its stderr, quieted. */
async function answerBesideBrokenServer(servers: Record<string, unknown>): Promise<string> {
	server.enqueue({ text: "done" });
	const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], project(servers));
	expect(result.code).toBe(0);
	expect(result.stdout).toBe("done\n");
	return quiet(result.stderr);
}

describe("MCP servers in print mode", () => {
	it("the model calls a project server's tools; their text and image results come back to it; nothing is left running", async () => {
		const dir = tempDir();
		const ws = project({ everything: everythingWithPid(join(dir, "pid"), join(dir, "helper.pid")) });
		server.enqueue(
			{ toolCalls: [{ name: "mcp__everything__echo", arguments: { message: "hello mcp" } }, { name: "mcp__everything__get-tiny-image", arguments: {} }] },
			{ text: "done" },
		);
		const result = await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "use the server"], ws);
		expect(quiet(result.stderr)).toBe("");
		expect(result.code).toBe(0);
		expect(toolNames(0)).toEqual(expect.arrayContaining(["read", "bash", "edit", "write", "mcp__everything__echo", "mcp__everything__get-tiny-image"]));
		expect(toolResults(1)).toEqual(["Echo: hello mcp", "Here's the image you requested:\nThe image above is the MCP logo."]);
		const images = server.requests[1]!.body.messages.at(-1).content.filter((part: any) => part.type === "image_url");
		expect(images).toHaveLength(1);
		expect(await processesGone([pidIn(join(dir, "pid")), pidIn(join(dir, "helper.pid"))])).toBe(true);
	});

	it("a credential written in a server's configuration is masked when a tool echoes it", async () => {
		const secret = "ghp_writtenInTheConfig0123";
		const ws = project({ everything: everythingStdio({ env: { GITHUB_PERSONAL_ACCESS_TOKEN: secret } }) });
		server.enqueue({ toolCalls: [{ name: "mcp__everything__echo", arguments: { message: `token ${secret}` } }] }, { text: "done" });
		const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "echo it"], ws);
		expect(result.code).toBe(0);
		expect(toolResults(1)).toEqual(["Echo: token ***"]);
	});

	it("an untrusted project's servers are not started, and stderr says so with the project's other code; --trust starts them", async () => {
		const ws = project({ everything: everythingStdio(), off: { command: "x", disabled: true } }, false);
		mkdirSync(join(ws.cwd, ".loom", "extensions"), { recursive: true });
		writeFileSync(join(ws.cwd, ".loom", "extensions", "noop.js"), "export default function () {}\n");
		const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(result.code).toBe(0);
		expect(result.stderr).toContain("server-everything/dist/index.js stdio");
		expect(result.stderr).toBe(
			`loom: skipped the project's own code (.mcp.json server everything: ${commandLine(process.execPath, [EVERYTHING_ENTRY, "stdio"])}, .loom/extensions/noop.js): this folder is not trusted yet: ` +
				'pass --trust (or set "trustProjects": true in settings.json), or run loom here without -p to be asked.\n',
		);
		expect(toolNames(0)).toEqual(["read", "bash", "edit", "write", "bash_output", "bash_kill", "ask_user", "todo_write", "task"]);

		const trusted = await runLoomInProcess(["-p", "--trust", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(quiet(trusted.stderr)).toBe("");
		expect(toolNames(1)).toContain("mcp__everything__echo");
	});

	it("reads servers from loom's home and from --mcp-config (a file or JSON text)", async () => {
		const ws = workspace();
		writeFileSync(join(ws.cwd, "notes.txt"), "a note\n");
		configure(join(ws.home, "mcp.json"), { fs: filesystemStdio([ws.cwd]) });
		configure(join(ws.cwd, "extra.json"), { everything: everythingStdio() });
		const inline = JSON.stringify({ mcpServers: { second: everythingStdio() } });
		server.enqueue({ toolCalls: [{ name: "mcp__fs__read_text_file", arguments: { path: join(ws.cwd, "notes.txt") } }] }, { text: "done" });
		const result = await runLoomInProcess(["-p", "--mcp-config", "extra.json", "--mcp-config", inline, ...serverFlags(server.openaiBaseUrl), "read it"], ws);
		expect(quiet(result.stderr)).toBe("");
		expect(toolNames(0)).toEqual(expect.arrayContaining(["mcp__fs__read_text_file", "mcp__everything__echo", "mcp__second__echo"]));
		expect(toolResults(1)).toEqual(["a note\n"]);
	});

	// VS Code's MCP configuration (.vscode/mcp.json) names its servers "servers", each with a "type".
	it("reads VS Code's shape ({\"servers\": {...}}); with \"mcpServers\" beside it, says that one is used", async () => {
		const ws = workspace();
		setProjectTrust(ws.home, ws.cwd, true);
		const vscode = { servers: { everything: { type: "stdio", ...everythingStdio({ env: { LOOM_TEST_VAR: "from vscode" } }) } } };
		writeFileSync(join(ws.cwd, ".mcp.json"), JSON.stringify(vscode, null, 2));
		server.enqueue({ toolCalls: [{ name: "mcp__everything__get-env", arguments: {} }] }, { text: "done" });
		const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "use the server"], ws);
		expect(quiet(result.stderr)).toBe("");
		expect(result.code).toBe(0);
		expect(toolNames(0)).toContain("mcp__everything__echo");
		expect(String(toolResults(1)[0])).toContain('"LOOM_TEST_VAR": "from vscode"');

		writeFileSync(join(ws.cwd, ".mcp.json"), JSON.stringify({ mcpServers: { second: everythingStdio() }, ...vscode }));
		server.enqueue({ text: "done" });
		const both = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(both.code).toBe(0);
		expect(quiet(both.stderr)).toBe(
			`loom: warning: ${join(ws.cwd, ".mcp.json")}: has both "mcpServers" and "servers" (VS Code's); loom uses "mcpServers" and ignores "servers".\n`,
		);
		expect(toolNames(2)).toContain("mcp__second__echo");
		expect(toolNames(2)).not.toContain("mcp__everything__echo");
	});

	it("--tools enables only the MCP tools it names, patterns included", async () => {
		const ws = project({ everything: everythingStdio() });
		const result = await runLoomInProcess(["-p", "--tools", "read,mcp__everything__echo,mcp__everything__get-s*", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(quiet(result.stderr)).toBe("");
		expect(toolNames(0)).toEqual(["read", "mcp__everything__echo", "mcp__everything__get-structured-content", "mcp__everything__get-sum"]);
	});

	it("--tools naming a server that is not configured is a usage error that lists the servers", async () => {
		const ws = project({ everything: everythingStdio() });
		const result = await runLoomInProcess(["-p", "--tools", "read,mcp__github__*", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(result.code).toBe(2);
		expect(result.stderr.split("\n")[0]).toBe(
			"loom: --tools: unknown tool mcp__github__*; choose from read,bash,edit,write,grep,find,ls,bash_output,bash_kill,ask_user,todo_write,web_fetch,web_search,lsp,task, or mcp__<server>__<tool> (mcp__<server>__* for all) of the MCP servers everything.",
		);
		expect(server.requests).toHaveLength(0);
	});

	it("a broken --mcp-config stops loom naming the file and the field (exit 1); a broken standing file is reported and left out", async () => {
		const ws = workspace();
		writeFileSync(join(ws.cwd, "bad.json"), JSON.stringify({ mcpServers: { x: { command: "npx", args: "-y server" } } }));
		const bad = await runLoomInProcess(["-p", "--mcp-config", "bad.json", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(bad.code).toBe(1);
		expect(bad.stderr).toBe(`loom: ${join(ws.cwd, "bad.json")}: mcpServers."x".args: must be an array of strings (got "-y server").\n`);
		expect(server.requests).toHaveLength(0);

		writeFileSync(join(ws.home, "mcp.json"), "{ not json");
		const standing = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(standing.code).toBe(0);
		expect(standing.stderr).toMatch(new RegExp(`^loom: warning: ${join(ws.home, "mcp.json")}: invalid JSON: .+ Its MCP servers were left out\\.\\n$`));
	});

	it("a server whose tool list breaks the MCP schema is reported in one line naming the field, not a dump", async () => {
		const stderr = await answerBesideBrokenServer({ sloppy: { command: process.execPath, args: [join(ROOT, "test/support/mcp/bad-tool-list.mjs")] } });
		expect(stderr).toBe(
			'loom: error: MCP server sloppy failed to start: its list of tools does not follow the MCP schema: tools[1].inputSchema.type: Invalid input: expected "object".\n',
		);
	});

	it("a server flooding stdout without line breaks is stopped, and the report says why, not only that it was killed", async () => {
		const flood = 'const chunk = "x".repeat(1 << 20); const write = () => { while (process.stdout.write(chunk)); process.stdout.once("drain", write); }; write();';
		const stderr = await answerBesideBrokenServer({ flood: { command: process.execPath, args: ["-e", flood] } });
		expect(stderr).toBe(
			"loom: error: MCP server flood failed to start: the server was stopped: it wrote over 10 MB to stdout without a line break (an MCP server's stdout carries only JSON-RPC messages, one a line; logs go to stderr)\n",
		);
	});

	it("a server that fails to start is told on stderr once; the run goes on without it", async () => {
		const ws = project({ broken: { command: "no-such-mcp-server-command" }, everything: everythingStdio() });
		server.enqueue({ toolCalls: [{ name: "mcp__everything__get-sum", arguments: { a: 1, b: 2 } }] }, { text: "done" });
		const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "add"], ws);
		expect(result.code).toBe(0);
		expect(quiet(result.stderr)).toMatch(/^loom: error: MCP server broken failed to start: command not found: no-such-mcp-server-command .*\n$/);
		expect(toolResults(1)).toEqual(["The sum of 1 and 2 is 3."]);
	});

	it("a call's progress and result appear in JSON mode's events", async () => {
		const ws = project({ everything: everythingStdio() });
		server.enqueue({ toolCalls: [{ name: "mcp__everything__trigger-long-running-operation", arguments: { duration: 0.6, steps: 3 } }] }, { text: "done" });
		const result = await runLoomInProcess(["-p", "--mode", "json", ...serverFlags(server.openaiBaseUrl), "wait"], ws);
		expect(result.code).toBe(0);
		const events = jsonLines(result.stdout);
		// Each update carries its new text (the progress replaced the previous one: all of it is new).
		expect(events.filter((event) => event.type === "tool_execution_update").map((event) => event.delta)).toContain("progress 1/3");
		expect(events.find((event) => event.type === "tool_execution_end")).toMatchObject({
			toolName: "mcp__everything__trigger-long-running-operation",
			isError: false,
			result: { content: [{ type: "text", text: "Long running operation completed. Duration: 0.6 seconds, Steps: 3." }] },
		});
	});
});

describe("no MCP server process outlives loom", () => {
	for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
		it(`${signal} during a call: loom leaves with ${code}, the server and what it started end with it`, async () => {
			const dir = tempDir();
			const ws = project({ everything: everythingWithPid(join(dir, "pid"), join(dir, "helper.pid")) });
			server.enqueue({ toolCalls: [{ name: "mcp__everything__trigger-long-running-operation", arguments: { duration: 60, steps: 600 } }] });
			const loom = startLoom(["-p", "--mode", "json", ...serverFlags(server.openaiBaseUrl), "wait"], ws);
			await loom.waitForStdout('"type":"tool_execution_update"');
			const pids = [pidIn(join(dir, "pid")), pidIn(join(dir, "helper.pid"))];
			expect(pids.every((id) => id > 0 && isAlive(id))).toBe(true);
			loom.child.kill(signal);
			expect((await loom.done).code).toBe(code);
			expect(await processesGone(pids)).toBe(true);
		});
	}
});

describe("startup cost", () => {
	it("loom without MCP servers never loads the MCP SDK; with a server it does", async () => {
		const recorder = join(ROOT, "test", "support", "mcp", "record-modules.mjs");
		const loaded = async (ws: { cwd: string; home: string }) => {
			const log = join(tempDir(), "modules.log");
			const result = await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], { ...ws, env: { NODE_OPTIONS: `--import=${recorder}`, LOOM_TEST_MODULE_LOG: log } });
			expect(result.code).toBe(0);
			return readFileSync(log, "utf8");
		};
		const without = await loaded(workspace());
		expect(without).toContain("create-session");
		expect(without).not.toContain("open-client");
		expect(await loaded(project({ everything: everythingStdio() }))).toContain("open-client");
	});
});
