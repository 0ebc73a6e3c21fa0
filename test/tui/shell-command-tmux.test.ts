// End to end in a real terminal: `!command` runs as the bash tool runs the model's commands: it returns once the
// shell is done (a background job does not hold it), Esc stops it with all it started, and loom leaves no
// process of it behind when it exits.
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAlive } from "../../src/core/process/index.js";
import { ensureBuilt, serverFlags } from "../cli/loom-process.js";
import { type ScriptedModelServer, startScriptedModelServer } from "../support/scripted-model-server.mjs";
import { workspace } from "../support/temp-dir.js";
import { TmuxTerminal, hasTmux, loomCommand } from "../support/tmux-terminal.js";
import { waitFor } from "../support/wait-for.js";

const terminal = new TmuxTerminal("loom-shell-command");

/** Running, not merely a zombie waiting for init to reap it (which may take a while in a container). */
function running(pid: number): boolean {
	if (!isAlive(pid)) return false;
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
	} catch {
		return false;
	}
}

function pidIn(file: string): number {
	return Number(readFileSync(file, "utf8").trim());
}

describe.skipIf(!hasTmux())("!command in a terminal (tmux)", () => {
	let server: ScriptedModelServer;
	let cwd: string;

	beforeAll(async () => {
		await ensureBuilt();
		server = await startScriptedModelServer();
		const ws = workspace();
		cwd = ws.cwd;
		mkdirSync(join(ws.home, "user-home"));
		terminal.start(loomCommand(ws.home, serverFlags(server.openaiBaseUrl), { SHELL: "/bin/sh" }), { cwd, columns: 100, rows: 30 });
	}, 120_000);

	afterAll(() => {
		terminal.kill();
		server?.close();
	});

	it("returns with the output while a background job runs on; Esc stops a long one; nothing is left when loom exits", async () => {
		await terminal.waitForScreen((text) => text.includes("Ask loom") && text.includes("ready"), "the editor");

		await terminal.typeLine("!sleep 100 & echo $! > bg.pid; echo hi");
		await terminal.waitForScreen((t) => /^\s+hi$/m.test(t) && !t.includes("esc stops it"), "the command's output, done", 10_000);
		const background = pidIn(join(cwd, "bg.pid"));
		expect(running(background)).toBe(true);

		await terminal.typeLine("!echo $$ > long.pid; sleep 100; echo never");
		await terminal.waitForScreen((t) => t.includes("esc stops it"), "the long command running");
		const long = await waitFor(() => {
			try {
				return pidIn(join(cwd, "long.pid"));
			} catch {
				return 0;
			}
		});
		terminal.sendKeys("Escape");
		const text = await terminal.waitForScreen((t) => t.includes("stopped") && !t.includes("esc stops it"), "the stopped command");
		expect(text).not.toMatch(/^\s+never$/m);
		// The shell's group: the shell and its sleep.
		expect(await waitFor(() => !running(long), Boolean, { what: "the long command's shell to end" })).toBe(true);

		terminal.sendKeys("C-d");
		await terminal.waitForScreen((t) => t.includes("[loom exited with 0]"), "loom exiting", 15_000);
		expect(await waitFor(() => !running(background), Boolean, { what: "the background job to end with loom" })).toBe(true);
	}, 120_000);
});
