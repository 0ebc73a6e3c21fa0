// A real hang-up: the terminal running loom goes away (its tmux window is killed), every write to it fails from
// then on, and loom gets SIGHUP (sent by the kernel once the terminal's shell has gone). loom still ends with 129,
// whatever failed on the way out.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useLoomInTmux } from "../support/loom-in-tmux.js";
import { type TmuxTerminal, hasTmux, shellQuote } from "../support/tmux-terminal.js";
import { waitFor } from "../support/wait-for.js";

describe.skipIf(!hasTmux())("the terminal goes away (tmux)", () => {
	const loom = useLoomInTmux("loom-hangup-exit");
	const server = loom.server;

	/**
	 * Starts loom in a shell that outlives the hang-up (it ignores SIGHUP; loom, a Node program, does not inherit
	 * that) and writes loom's exit code to a file, since the terminal that would show it is gone. The shell staying,
	 * the kernel does not send loom the SIGHUP: the test does, as the kernel would.
	 */
	function open(args: string[] = []) {
		const ws = loom.workspace();
		const codeFile = join(ws.home, "exit-code");
		const opened = loom.open({
			workspace: ws,
			args,
			command: (command) => `trap '' HUP; ${command.replace(/; echo "\[loom exited with \$\?\]"$/, `; echo $? > ${shellQuote(codeFile)}`)}`,
		});
		const exitCode = () => waitFor(() => (existsSync(codeFile) ? readFileSync(codeFile, "utf8").trim() : ""), Boolean, { what: "loom's exit code" });
		return { ...opened, exitCode };
	}

	/** Closes the terminal as a person closing its window does: the terminal goes, then SIGHUP comes. */
	async function hangUp(terminal: TmuxTerminal): Promise<void> {
		const pid = await terminal.paneChild();
		terminal.tmux("kill-window", "-t", terminal.session);
		process.kill(pid, "SIGHUP");
	}

	it("the screen, idle: exit 129", async () => {
		const { terminal, exitCode } = open();
		await terminal.waitForScreen((text) => text.includes("Ask loom"), "the editor");
		await hangUp(terminal);
		expect(await exitCode()).toBe("129");
	});

	it("the screen, while an answer streams: exit 129", async () => {
		const { terminal, exitCode } = open();
		await terminal.waitForScreen((text) => text.includes("Ask loom"), "the editor");
		server.enqueue({ text: "word ", endless: true, chunkDelayMs: 5 });
		await terminal.typeLine("talk");
		await terminal.waitForScreen((text) => text.includes("word word"), "the answer streaming");
		await hangUp(terminal);
		expect(await exitCode()).toBe("129");
	});

	it("print mode, its status line on the terminal, while an answer streams: exit 129", async () => {
		server.enqueue({ text: "word ", endless: true, chunkDelayMs: 5 });
		const { terminal, exitCode } = open(["-p", "talk"]);
		await waitFor(() => server.requests.length, Boolean, { what: "the model request" });
		await new Promise((resolve) => setTimeout(resolve, 300));
		await hangUp(terminal);
		expect(await exitCode()).toBe("129");
	});
});

