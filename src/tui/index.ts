// Entry of the interactive screen. The CLI calls runInteractive when stdin and stdout are terminals.
import { homedir } from "node:os";
import { render } from "ink";
import { createElement } from "react";
import { App } from "./components/App.js";
import type { SessionPort } from "./session-port.js";

export type { SessionPort, SessionSummary, SessionUsageTotals } from "./session-port.js";

export interface InteractiveOptions {
	/** Sent as soon as the screen is up (`loom "a first prompt"`). */
	initialPrompt?: string;
	/** Streams, for tests; default the process's. */
	stdin?: NodeJS.ReadStream;
	stdout?: NodeJS.WriteStream;
	stderr?: NodeJS.WriteStream;
	/** Route stray console output above the screen instead of through it (default true; test runners replace console). */
	patchConsole?: boolean;
}

// Bracketed paste: the terminal marks pasted text, so a pasted newline never sends the prompt.
const PASTE_ON = "\u001b[?2004h";
const PASTE_OFF = "\u001b[?2004l";

/** Runs the screen until the user quits; resolves with the process exit code. */
export async function runInteractive(session: SessionPort, options: InteractiveOptions = {}): Promise<number> {
	const stdin = options.stdin ?? process.stdin;
	const stdout = options.stdout ?? process.stdout;
	const stderr = options.stderr ?? process.stderr;
	// Ink's input hook throws without raw mode: only a TTY with setRawMode can take keys.
	const inputActive = stdin.isTTY === true && typeof stdin.setRawMode === "function";
	const pasteMode = inputActive && stdout.isTTY === true;
	let exitCode = 0;
	let unmount: (() => void) | undefined;
	let exitRequested = false;
	const onExit = (code: number) => {
		exitCode = code;
		exitRequested = true;
		unmount?.();
	};
	if (pasteMode) stdout.write(PASTE_ON);
	try {
		const instance = render(createElement(App, { session, initialPrompt: options.initialPrompt, inputActive, onExit, home: homedir() }), {
			stdin,
			stdout,
			stderr,
			exitOnCtrlC: false,
			patchConsole: options.patchConsole ?? true,
			maxFps: 30,
			kittyKeyboard: { mode: "auto", flags: ["disambiguateEscapeCodes"] },
		});
		unmount = () => instance.unmount();
		if (exitRequested) instance.unmount();
		await instance.waitUntilExit();
	} finally {
		if (pasteMode) stdout.write(PASTE_OFF);
	}
	return exitCode;
}
