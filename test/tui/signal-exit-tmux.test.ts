// A signal from outside (kill, a closed terminal) while the screen is up, in a real terminal (tmux): loom leaves
// the terminal as a shell expects it, and a second signal leaves at once even when the first cannot finish.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useLoomInTmux } from "../support/loom-in-tmux.js";
import { tempDir } from "../support/temp-dir.js";
import { type TmuxTerminal, count, hasTmux } from "../support/tmux-terminal.js";

describe.skipIf(!hasTmux())("signals while the screen is up (tmux)", () => {
	const loom = useLoomInTmux("loom-signal-exit");
	const server = loom.server;
	let terminal: TmuxTerminal;

	/**
	 * Starts loom in a fresh project; once it ends, `cat -v` reads the terminal, showing escape sequences as text.
	 * `git` replaces git on the PATH (a script). Resolves with loom's process id.
	 */
	async function open(git?: string): Promise<number> {
		const env: Record<string, string> = {};
		if (git) {
			const bin = tempDir("loom-signal-exit-bin-");
			writeFileSync(join(bin, "git"), git);
			chmodSync(join(bin, "git"), 0o755);
			env.PATH = `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`;
		}
		({ terminal } = loom.open({ env, command: (loomCommand) => `${loomCommand}; cat -v`, checkpoints: git !== undefined }));
		await terminal.waitForScreen((text) => text.includes("Ask loom"), "the editor");
		return terminal.paneChild();
	}

	/** Pastes `text` as a terminal does: wrapped in ESC[200~ … ESC[201~ only if the program asked for bracketed paste. */
	function paste(text: string): void {
		terminal.tmux("set-buffer", "-b", "signal-test", text);
		terminal.tmux("paste-buffer", "-p", "-b", "signal-test", "-t", terminal.session);
	}

	/**
	 * Pastes a line once loom has ended, and reads it back as the terminal echoed it and cat -v wrote it: twice only
	 * in line mode (raw mode echoes nothing), escape sequences shown as text.
	 */
	async function pastedLines(): Promise<string> {
		paste("pasted-after-loom\r");
		const text = await terminal.waitForScreen((t) => count(t, "pasted-after-loom") === 2, "the pasted text, as cat -v shows it");
		return text.split("\n").filter((line) => line.includes("pasted-after-loom")).join("\n");
	}

	/** Whether the terminal shows its cursor. */
	function cursorShown(): boolean {
		return terminal.tmux("display-message", "-p", "-t", terminal.session, "#{cursor_flag}").trim() === "1";
	}

	it.each([
		["SIGTERM", 143],
		["SIGHUP", 129],
	] as const)("%s ends loom (exit %i) with bracketed paste off, line mode and the cursor back, so a paste into the shell after is plain text", async (signal, code) => {
		const loom = await open();
		process.kill(loom, signal);
		await terminal.waitForScreen((text) => text.includes(`[loom exited with ${code}]`), "loom's exit");
		expect(await pastedLines()).not.toContain("^[[200~");
		expect(cursorShown()).toBe(true);
	});

	it("SIGTERM during a run waits for the run to end; a second one leaves at once when it cannot, the terminal restored all the same", async () => {
		// git never answers: the checkpoint a file-changing call waits for is never taken, so the run never ends.
		const loom = await open("#!/bin/sh\nexec sleep 600\n");
		server.enqueue({ text: "Writing it.", toolCalls: [{ id: "w", name: "write", arguments: { path: "notes.txt", content: "x\n" } }] }, { text: "never" });
		await terminal.typeLine("hello");
		await terminal.waitForScreen((t) => t.includes("Writing it.") && t.includes("notes.txt"), "the write call, waiting for its checkpoint");
		process.kill(loom, "SIGTERM");
		await new Promise((resolve) => setTimeout(resolve, 1000));
		expect(terminal.screen()).not.toContain("[loom exited");
		process.kill(loom, "SIGTERM");
		await terminal.waitForScreen((text) => text.includes("[loom exited with 143]"), "loom's exit after the second signal");
		expect(await pastedLines()).not.toContain("^[[200~");
		expect(cursorShown()).toBe(true);
	});
});

