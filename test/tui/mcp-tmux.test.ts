// MCP servers in the interactive screen (tmux): a project's servers start on a yes to the trust question, the
// first prompt gets their tools, /mcp lists the servers with their state and tools, and leaving with Ctrl+C
// leaves no server process behind; a server slow to start does not hold up the editor.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isAlive } from "../../src/core/lib/process/index.js";
import { useLoomInTmux } from "../support/loom-in-tmux.js";
import { EVERYTHING_ENTRY, everythingWithPid, pidIn, processesGone } from "../support/mcp-servers.js";
import { tempDir } from "../support/temp-dir.js";
import { hasTmux } from "../support/tmux-terminal.js";

describe.skipIf(!hasTmux())("MCP servers in the screen (tmux)", () => {
	const { server, workspace, open } = useLoomInTmux("loom-mcp");

	it("the trust question names the servers; on a yes a failed server is told, the first prompt sees the tools, /mcp lists them, Ctrl+C leaves nothing running", async () => {
		const dir = tempDir();
		const ws = workspace();
		const { cwd } = ws;
		writeFileSync(
			join(cwd, ".mcp.json"),
			JSON.stringify({ mcpServers: { everything: everythingWithPid(join(dir, "pid"), join(dir, "helper.pid")), broken: { command: "no-such-mcp-server-command" } } }),
		);
		const { terminal } = open({ workspace: ws, columns: 120, rows: 40 });
		const question = await terminal.waitForScreen((text) => text.includes("Trust this project folder?"), "the trust question");
		expect(question).toContain(".mcp.json server everything: sh");
		expect(question).toContain(".mcp.json server broken: no-such-mcp-server-command");
		expect(pidIn(join(dir, "pid"))).toBe(0);
		terminal.sendKeys("Enter");
		await terminal.waitForScreen((text) => !text.includes("Trust this project folder?") && text.includes("Ask loom") && text.includes("ready"), "the editor");
		await terminal.waitForScreen((text) => text.includes("MCP server broken failed to start: command not found: no-such-mcp-server-command"), "the failure notice");

		server.enqueue({ toolCalls: [{ id: "call_1", name: "mcp__everything__echo", arguments: { message: "from the screen" } }] }, { text: "Echoed." });
		await terminal.typeLine("echo something");
		const answered = await terminal.waitForScreen((text) => text.includes("Echoed.") && text.includes("ready"), "the answer");
		expect(answered).toContain("mcp__everything__echo");
		expect(answered).toContain("Echo: from the screen");
		expect(server.requests[0]!.body.tools.map((tool: any) => tool.function.name)).toContain("mcp__everything__echo");

		await terminal.typeLine("/mcp");
		// Not "MCP servers:" alone: the command popup's description of /mcp starts so too.
		const listed = await terminal.waitForScreen((text) => text.includes("MCP servers:\n"), "the server list");
		expect(listed).toContain(`everything · ready · stdio · ${join(cwd, ".mcp.json")}`);
		expect(listed).toMatch(/\d+ tools \(mcp__everything__\*\): echo, get-annotated-message, /);
		expect(listed).toContain("broken · failed: command not found: no-such-mcp-server-command");

		const pids = [pidIn(join(dir, "pid")), pidIn(join(dir, "helper.pid"))];
		expect(pids.every((id) => id > 0 && isAlive(id))).toBe(true);
		terminal.sendKeys("C-c");
		await terminal.waitForScreen((text) => text.includes("Press Ctrl+C again to exit."), "the exit hint");
		terminal.sendKeys("C-c");
		await terminal.waitForScreen((text) => text.includes("[loom exited with 0]"), "loom exiting");
		expect(await processesGone(pids)).toBe(true);
	});

	it("a server still starting does not hold up the editor; a prompt sent meanwhile says it waits, then gets the server's tools", async () => {
		const ws = workspace();
		const go = join(tempDir(), "go");
		const started = join(tempDir(), "started");
		const slow = `while [ ! -e '${go}' ]; do sleep 0.05; done; touch '${started}'; exec '${process.execPath}' '${EVERYTHING_ENTRY}' stdio`;
		writeFileSync(join(ws.home, "mcp.json"), JSON.stringify({ mcpServers: { slow: { command: "sh", args: ["-c", slow] } } }));
		const { terminal } = open({ workspace: ws, columns: 120, rows: 40 });
		await terminal.waitForScreen((text) => text.includes("Ask loom") && text.includes("ready"), "the editor");
		terminal.sendKeys("-l", "typed while it starts");
		await terminal.waitForScreen((text) => text.includes("typed while it starts"), "the typed text in the editor");
		expect(existsSync(started)).toBe(false);

		server.enqueue({ toolCalls: [{ id: "call_1", name: "mcp__slow__echo", arguments: { message: "late but there" } }] }, { text: "Echoed late." });
		terminal.sendKeys("Enter");
		await terminal.waitForScreen((text) => text.includes("Waiting for MCP servers to start: slow."), "the waiting notice");
		expect(server.requests).toHaveLength(0);
		writeFileSync(go, "");
		const answered = await terminal.waitForScreen((text) => text.includes("Echoed late.") && text.includes("ready"), "the answer");
		expect(answered).toContain("Echo: late but there");
		expect(server.requests[0]!.body.tools.map((tool: any) => tool.function.name)).toContain("mcp__slow__echo");
		terminal.sendKeys("C-c");
		terminal.sendKeys("C-c");
		await terminal.waitForScreen((text) => text.includes("[loom exited with 0]"), "loom exiting");
	});
});
