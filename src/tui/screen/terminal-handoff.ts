// Handing the terminal to someone else and taking it back: the user's editor (Ctrl+G) and the shell (Ctrl+Z).
// While loom has it, the terminal is in raw mode with bracketed paste on (and focus reporting, for the bell); the
// other program expects it as a shell leaves it. The editor runs with a synchronous spawn: while it runs, nothing in loom reads the keyboard.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readCheckedText } from "../../core/index.js";
import { FOCUS_OFF, FOCUS_ON } from "./attention-bell.js";

/** The most of the edited prompt taken back, as for a prompt from stdin or @file. */
const MAX_EDITED_BYTES = 10 * 1024 * 1024;

// Bracketed paste: the terminal marks pasted text, so a pasted newline never sends the prompt.
export const PASTE_ON = "\u001b[?2004h";
export const PASTE_OFF = "\u001b[?2004l";
const SHOW_CURSOR = "\u001b[?25h";
const HIDE_CURSOR = "\u001b[?25l";

export interface TerminalStreams {
	stdin: NodeJS.ReadStream;
	stdout: NodeJS.WriteStream;
}

/** The terminals the screen has asked to report focus: a handoff turns it off, and on again after. */
const reportingFocus = new WeakSet<NodeJS.WriteStream>();

/** Turns the terminal's focus reporting on or off (CSI ?1004h / l). */
export function setFocusReporting(stdout: NodeJS.WriteStream, on: boolean): void {
	stdout.write(on ? FOCUS_ON : FOCUS_OFF);
	if (on) reportingFocus.add(stdout);
	else reportingFocus.delete(stdout);
}

/** The terminal as a shell expects it: line mode, no bracketed paste nor focus reports, the cursor shown. */
export function releaseTerminal({ stdin, stdout }: TerminalStreams): void {
	stdout.write(PASTE_OFF + (reportingFocus.has(stdout) ? FOCUS_OFF : "") + SHOW_CURSOR);
	if (stdin.isTTY) stdin.setRawMode(false);
}

/** The terminal as the screen needs it again. */
export function reclaimTerminal({ stdin, stdout }: TerminalStreams): void {
	if (stdin.isTTY) stdin.setRawMode(true);
	stdout.write(PASTE_ON + (reportingFocus.has(stdout) ? FOCUS_ON : "") + HIDE_CURSOR);
}

/** The user's editor command: $VISUAL, else $EDITOR; undefined when neither is set. */
export function editorCommand(env: NodeJS.ProcessEnv = process.env): string | undefined {
	return [env.VISUAL, env.EDITOR].map((value) => value?.trim()).find((value) => value !== undefined && value !== "");
}

export type EditOutcome = { text: string } | { error: string };

/**
 * Opens `text` in the user's editor (a command line, run by /bin/sh with the file as its last argument) and
 * returns what was saved, read back as any file on the user's behalf (a regular file, bounded: the editor may
 * have put anything in its place). The file is private to the user and removed after.
 */
export function editInEditor(text: string, terminal: TerminalStreams, env: NodeJS.ProcessEnv = process.env): EditOutcome {
	const editor = editorCommand(env);
	if (!editor) return { error: "Set $VISUAL or $EDITOR to edit the prompt in your editor (e.g. export EDITOR=vim)." };
	const dir = mkdtempSync(join(tmpdir(), "loom-edit-"));
	const file = join(dir, "prompt.md");
	try {
		writeFileSync(file, text, { mode: 0o600 });
		releaseTerminal(terminal);
		let result: ReturnType<typeof spawnSync>;
		try {
			result = spawnSync("/bin/sh", ["-c", `${editor} "$1"`, "sh", file], { stdio: "inherit", env });
		} finally {
			reclaimTerminal(terminal);
		}
		if (result.error) return { error: `Could not start the editor (${editor}): ${result.error.message}` };
		if (result.status !== 0) return { error: `The editor (${editor}) exited with ${result.status ?? result.signal}; the prompt is unchanged.` };
		try {
			return { text: readCheckedText(file, { maxBytes: MAX_EDITED_BYTES, label: "The edited prompt" }) };
		} catch (error) {
			return { error: `${(error as Error).message} The prompt is unchanged.` };
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** Stops loom as Ctrl+Z does in a shell, the terminal released; resolves once `fg` continues it, the terminal taken back. */
export function suspendToShell(terminal: TerminalStreams): Promise<void> {
	return new Promise((resolve) => {
		process.once("SIGCONT", () => {
			reclaimTerminal(terminal);
			resolve();
		});
		releaseTerminal(terminal);
		process.kill(process.pid, "SIGTSTP");
	});
}
