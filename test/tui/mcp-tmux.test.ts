// MCP servers in the interactive screen (tmux): the first prompt gets the servers' tools, /mcp lists the servers
// with their state and tools, and leaving with Ctrl+C leaves no server process behind.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setProjectTrust } from "../../src/core/session/project-trust.js";
import { isProcessAlive } from "../../src/tools/process-groups.js";
import { ensureBuilt, serverFlags } from "../cli/loom-process.js";
import { everythingWithPid } from "../support/mcp-servers.js";
import { type ScriptedModelServer, startScriptedModelServer } from "../support/scripted-model-server.mjs";
import { tempDir, workspace } from "../support/temp-dir.js";
import { TmuxTerminal, hasTmux, loomCommand } from "../support/tmux-terminal.js";
import { waitFor } from "../support/wait-for.js";

const terminal = new TmuxTerminal("loom-mcp");

function pid(file: string): number {
	try {
		return Number(readFileSync(file, "utf8").trim());
	} catch {
		return 0;
	}
}

describe.skipIf(!hasTmux())("MCP servers in the screen (tmux)", () => {
	let server: ScriptedModelServer;

	beforeAll(async () => {
		await ensureBuilt();
		server = await startScriptedModelServer();
	}, 120_000);

	afterAll(() => {
		terminal.kill();
		server?.close();
	});

	it("the first prompt sees the tools, /mcp lists the server and its tools, Ctrl+C leaves nothing running", async () => {
		const dir = tempDir();
		const { cwd, home } = workspace();
		mkdirSync(join(home, "user-home"));
		writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { everything: everythingWithPid(join(dir, "pid"), join(dir, "helper.pid")) } }));
		setProjectTrust(home, cwd, true);
		terminal.start(loomCommand(home, serverFlags(server.openaiBaseUrl)), { cwd, columns: 120, rows: 40 });
		await terminal.waitForScreen((text) => text.includes("Ask loom") && text.includes("ready"), "the editor");

		server.enqueue({ toolCalls: [{ id: "call_1", name: "mcp__everything__echo", arguments: { message: "from the screen" } }] }, { text: "Echoed." });
		await terminal.typeLine("echo something");
		const answered = await terminal.waitForScreen((text) => text.includes("Echoed.") && text.includes("ready"), "the answer");
		expect(answered).toContain("mcp__everything__echo");
		expect(answered).toContain("Echo: from the screen");
		expect(server.requests[0]!.body.tools.map((tool: any) => tool.function.name)).toContain("mcp__everything__echo");

		await terminal.typeLine("/mcp");
		const listed = await terminal.waitForScreen((text) => text.includes("MCP servers:"), "the server list");
		expect(listed).toContain(`everything · ready · stdio · ${join(cwd, ".mcp.json")}`);
		expect(listed).toMatch(/\d+ tools \(mcp__everything__\*\): echo, get-annotated-message, /);

		const pids = [pid(join(dir, "pid")), pid(join(dir, "helper.pid"))];
		expect(pids.every((id) => id > 0 && isProcessAlive(id))).toBe(true);
		terminal.sendKeys("C-c");
		terminal.sendKeys("C-c");
		await terminal.waitForScreen((text) => text.includes("[loom exited with 0]"), "loom exiting");
		await waitFor(() => pids.every((id) => !isProcessAlive(id)), Boolean, { what: "the server and its helper to end" });
	});
});
