// Lending the terminal in a real pseudo-terminal (tmux): Ctrl+G to a scripted $EDITOR and back, Ctrl+Z to an
// interactive shell and `fg` back, `!command` from the editor. loom runs from bash, as a user starts it.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAlive } from "../../src/core/lib/process/index.js";
import { serverFlags, useScriptedServer } from "../support/loom-process.js";
import { workspace } from "../support/temp-dir.js";
import { TmuxTerminal, hasTmux, loomCommand, shellQuote } from "../support/tmux-terminal.js";
import { waitFor } from "../support/wait-for.js";

const terminal = new TmuxTerminal("loom-handoff");

/** An $EDITOR that records whether the terminal was in line mode, and rewrites the file it is given. */
const EDITOR_SCRIPT = `#!/bin/sh
if stty -a | grep -q -- '-icanon'; then mode=raw; else mode=cooked; fi
{ printf 'edited(%s): ' "$mode"; cat "$1"; } > "$1.new" && mv "$1.new" "$1"
`;

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

/** The pid a command wrote to `file`, once it has. */
function pidIn(file: string): Promise<number> {
	return waitFor(() => {
		try {
			return Number(readFileSync(file, "utf8").trim());
		} catch {
			return 0;
		}
	});
}

describe.skipIf(!hasTmux())("lending the terminal (tmux)", () => {
	const server = useScriptedServer();
	let cwd: string;
	/** A background job a `!command` left running. */
	let background = 0;

	beforeAll(async () => {
		const ws = workspace();
		cwd = ws.cwd;
		const home = ws.home;
		mkdirSync(join(home, "user-home"));
		const editor = join(home, "editor.sh");
		writeFileSync(editor, EDITOR_SCRIPT);
		chmodSync(editor, 0o755);
		const shell = ["env", "-i", `PATH=${process.env.PATH ?? "/usr/bin:/bin"}`, "PS1=shell$ ", "TERM=xterm-256color", "bash", "--norc", "--noprofile", "-i"];
		terminal.start(shell.map(shellQuote).join(" "), { cwd, columns: 100, rows: 30 });
		await terminal.waitForScreen((text) => text.includes("shell$"), "the shell prompt");
		terminal.sendKeys("-l", loomCommand(home, serverFlags(server.openaiBaseUrl), { EDITOR: editor }));
		terminal.sendKeys("Enter");
		await terminal.waitForScreen((text) => text.includes("Ask loom") && text.includes("ready"), "the editor and the footer");
	});

	afterAll(() => terminal.kill());

	it("Ctrl+G hands the text to $EDITOR in line mode and takes the saved text back", async () => {
		terminal.sendKeys("-l", "hello there");
		await terminal.waitForScreen((t) => t.includes("› hello there"), "the typed text");
		terminal.sendKeys("C-g");
		await terminal.waitForScreen((t) => t.includes("› edited(cooked): hello there"), "the text from the editor");
		server.enqueue({ text: "Got the edited prompt." });
		terminal.sendKeys("Enter");
		await terminal.waitForScreen((t) => t.includes("Got the edited prompt.") && t.includes("ready"), "the answer");
		expect(JSON.stringify(server.requests.at(-1)?.body.messages)).toContain("edited(cooked): hello there");
	});

	it("!command shows a shell command's output without asking the model", async () => {
		const requests = server.requests.length;
		await terminal.typeLine("!echo hi-from-the-shell");
		await terminal.waitForScreen((t) => /^\s+hi-from-the-shell$/m.test(t), "the command's output");
		expect(server.requests).toHaveLength(requests);
	});

	it("!command returns when the shell is done, though a background job holds its output; Esc stops a long one with all it started", async () => {
		await terminal.typeLine("!sleep 100 & echo $! > bg.pid; echo hi-and-done");
		await terminal.waitForScreen((t) => /^\s+hi-and-done$/m.test(t) && !t.includes("esc stops it"), "the command's output, done");
		background = await pidIn(join(cwd, "bg.pid"));
		expect(running(background)).toBe(true);

		await terminal.typeLine("!echo $$ > long.pid; sleep 100; echo never");
		await terminal.waitForScreen((t) => t.includes("esc stops it"), "the long command running");
		const long = await pidIn(join(cwd, "long.pid"));
		terminal.sendKeys("Escape");
		const text = await terminal.waitForScreen((t) => t.includes("interrupted") && !t.includes("esc stops it"), "the stopped command");
		expect(text).not.toMatch(/^\s+never$/m);
		expect(await waitFor(() => !running(long), Boolean, { what: "the long command's shell to end" })).toBe(true);
	});

	it("Ctrl+Z suspends loom to the shell in line mode, fg brings the screen back with keys working, Ctrl+L redraws", async () => {
		terminal.sendKeys("C-z");
		await terminal.waitForScreen((t) => /Stopped/.test(t) && t.trimEnd().endsWith("shell$"), "the shell after Ctrl+Z");
		terminal.sendKeys("-l", "stty -a | grep -o -- '-\\?icanon'");
		terminal.sendKeys("Enter");
		await terminal.waitForScreen((t) => /^icanon$/m.test(t), "the terminal in line mode");
		terminal.sendKeys("-l", "fg");
		terminal.sendKeys("Enter");
		await terminal.waitForScreen((t) => t.includes("Ask loom") && t.includes("ready") && !t.includes("shell$ fg"), "loom back after fg");
		server.enqueue({ text: "Still here." });
		await terminal.typeLine("are you there");
		await terminal.waitForScreen((t) => t.includes("Still here.") && t.includes("ready"), "an answer after fg");
		terminal.sendKeys("C-l");
		const text = await terminal.waitForScreen((t) => t.includes("Still here.") && !t.includes("Stopped"), "the redrawn screen");
		expect(text).toContain("› are you there");
	});

	it("ends what a !command left running when loom exits", async () => {
		expect(background).toBeGreaterThan(0);
		terminal.sendKeys("C-d");
		// Resumed by fg, loom is a job of its own: the shell's prompt comes back, without loomCommand's exit line.
		await terminal.waitForScreen((t) => t.trimEnd().endsWith("shell$"), "the shell after loom exits");
		expect(await waitFor(() => !running(background), Boolean, { what: "the background job to end with loom" })).toBe(true);
	});
});
