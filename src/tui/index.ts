// Entry of the interactive screen. The CLI calls runInteractive when stdin and stdout are terminals.
import { createRequire } from "node:module";
import { homedir } from "node:os";
import type { Attachment, SelectOptions, Settings, UiChoice } from "../core/index.js";
import { onProcessExit, withBaselineWasm } from "../core/index.js";
import { colorRefused } from "./text/index.js";
import type { SessionPort, StartedPrompt } from "./session-port.js";
import type { AttentionBell } from "./screen/index.js";

export type { StartedPrompt } from "./session-port.js";
// Loaded by the CLI before anything else of the screen, to draw the editor at once: only what it needs is static here.
export { drawFirstFrame } from "./screen/index.js";

export interface InteractiveOptions {
	/** Sent as soon as the screen is up (`loom "a first prompt"`). */
	initialPrompt?: string;
	/** Files the initial prompt mentions, read already (the @file arguments): sent as read, not read again. */
	initialAttachments?: readonly Attachment[];
	/** Streams, for tests; default the process's. */
	stdin?: NodeJS.ReadStream;
	stdout?: NodeJS.WriteStream;
	stderr?: NodeJS.WriteStream;
	/** Route stray console output above the screen instead of through it (default true; test runners replace console). */
	patchConsole?: boolean;
	/** The loom home: the prompts typed are kept there across sessions (Up recalls a project's). None: not kept. */
	loomHome?: string;
	/** Resolves with an exit code when the screen must end now (a signal from outside); the screen ends as on quit. */
	stop?: Promise<number>;
	/** settings.json's `notify`: how the screen calls the user back (default "auto"). */
	notify?: Settings["notify"];
	/** For the "auto" notification's choice (default the process's). */
	env?: NodeJS.ProcessEnv;
	/** Called once the first frame is on the terminal and the keys typed before it have been read. */
	onFirstFrame?: () => void;
	/** Takes the keys typed before the screen was up (read already, held): the editor takes them first, as typed. */
	typedAhead?: () => string;
	/** A prompt sent before the screen was up (typed ahead): shown as the editor's own, its run as it goes on. */
	startedPrompt?: StartedPrompt;
}

/**
 * Loads Ink, React and the components, once. Run from the sources, React picks its build from NODE_ENV when
 * first loaded; left unset, that is the development build, which checks and records every render and made a
 * fast stream cost several times the CPU. So an unset NODE_ENV means production here. (In the bundle NODE_ENV
 * reads as production everywhere, see rolldown.config.mjs, and this loader never touches the environment.)
 */
function loadScreen(): Promise<typeof import("./mount-screen.js")> {
	screen ??= importScreen();
	return screen;
}

let screen: Promise<typeof import("./mount-screen.js")> | undefined;

async function importScreen(): Promise<typeof import("./mount-screen.js")> {
	if (process.env.NODE_ENV === undefined) loadProductionReact();
	// Ink's layout engine is WebAssembly, compiled as its module loads: baseline code lays out the screen's boxes
	// fast enough, and its optimised compile cost a quarter of the screen's CPU over a fast answer.
	return withBaselineWasm(() => import("./mount-screen.js"));
}

/** The rest of what runInteractive uses, loaded with the screen (not by the editor's first frame, which comes first). */
function loadTerminal() {
	terminal ??= Promise.all([import("./screen/index.js"), import("./editor/index.js")]);
	return terminal;
}

let terminal: Promise<[typeof import("./screen/index.js"), typeof import("./editor/index.js")]> | undefined;

/**
 * Loads React's CommonJS modules that read NODE_ENV as they load, with NODE_ENV set to production only during this
 * synchronous call: nothing else runs meanwhile, so no process the agent starts (an MCP server starting while the
 * screen loads, a command) and no extension sees a NODE_ENV the user never set. Ink's own imports then find these
 * modules in Node's module cache. A module missing from the list would load its development build, nothing worse.
 */
function loadProductionReact(): void {
	const fromLoom = createRequire(import.meta.url);
	const fromInk = createRequire(fromLoom.resolve("ink"));
	const env = process.env;
	env.NODE_ENV = "production";
	try {
		fromLoom("react");
		fromLoom("react/jsx-runtime");
		for (const name of ["react-reconciler", "react-reconciler/constants.js", "scheduler"]) fromInk(name);
	} finally {
		delete env.NODE_ENV;
	}
}

/**
 * Starts loading the screen while the caller does other work (assembling the session): its layout engine is
 * WebAssembly, compiled off the main thread, and its files are read meanwhile. runInteractive() then waits only
 * for what is left. A failure surfaces there.
 */
export function preloadScreen(): void {
	loadScreen().catch(() => {});
	loadTerminal().catch(() => {});
}

/** Runs the screen until the user quits; resolves with the process exit code. */
export async function runInteractive(session: SessionPort, options: InteractiveOptions = {}): Promise<number> {
	let exitCode = 0;
	let unmount: (() => void) | undefined;
	let exitRequested = false;
	const onExit = (code: number) => {
		exitCode = code;
		exitRequested = true;
		unmount?.();
	};
	void options.stop?.then(onExit);
	const [{ mountScreen }, [{ AttentionBell, PASTE_OFF, PASTE_ON, releaseTerminal, setFocusReporting }, { promptHistoryPath }], stdout, stderr] = await Promise.all([
		loadScreen(),
		loadTerminal(),
		terminalStream(options.stdout ?? process.stdout),
		terminalStream(options.stderr ?? process.stderr),
	]);
	const stdin = options.stdin ?? process.stdin;
	// Ink's input hook throws without raw mode: only a TTY with setRawMode can take keys.
	const inputActive = stdin.isTTY === true && typeof stdin.setRawMode === "function";
	const pasteMode = inputActive && stdout.isTTY === true;
	// Only a terminal both ways can report focus and show a ring.
	const bell = pasteMode ? new AttentionBell({ write: (text) => stdout.write(text), setting: options.notify, env: options.env }) : undefined;
	const ringing = bell?.enabled ? bell : undefined;
	// Leaving the process with the screen up (process.exit, a second signal): the terminal as a shell expects it.
	// Ink pops the keyboard protocol it pushed as it unmounts; writes to a terminal are synchronous.
	const leave = () => {
		unmount?.();
		if (ringing) setFocusReporting(stdout, false);
		if (pasteMode) releaseTerminal({ stdin, stdout });
	};
	const forgetLeave = onProcessExit(leave);
	if (pasteMode) stdout.write(PASTE_ON);
	const stopListening = ringing ? listenForBell(session, ringing) : () => {};
	if (ringing) setFocusReporting(stdout, true);
	try {
		const instance = mountScreen(
			{
				session,
				initialPrompt: options.initialPrompt,
				initialAttachments: options.initialAttachments,
				inputActive,
				onExit,
				home: homedir(),
				historyFile: options.loomHome && promptHistoryPath(options.loomHome),
				onDialog: ringing && ((title) => ringing.waiting(title)),
				startedPrompt: options.startedPrompt,
			},
			{ stdin, stdout, stderr, patchConsole: options.patchConsole ?? true, onFocus: ringing && ((focused) => ringing.setFocused(focused)), typedAhead: options.typedAhead?.() },
		);
		unmount = () => instance.unmount();
		// Ink draws the first frame as it mounts; setImmediate comes after the poll that reads the keys typed meanwhile.
		if (options.onFirstFrame) setImmediate(options.onFirstFrame);
		if (exitRequested) instance.unmount();
		await instance.waitUntilExit();
	} finally {
		forgetLeave();
		stopListening();
		if (ringing) setFocusReporting(stdout, false);
		if (pasteMode) stdout.write(PASTE_OFF);
	}
	return exitCode;
}

/** The runs' starts and ends, for the bell. */
function listenForBell(session: SessionPort, bell: AttentionBell): () => void {
	return session.subscribe((event) => {
		if (event.type === "run_start") bell.runStarted();
		else if (event.type === "run_end") bell.runEnded(event.status);
	});
}

/**
 * One picker on the terminal before any screen exists (`loom -r`): drawn on `stderr`, keys from `stdin` (a TTY).
 * Resolves with the chosen value, "dismissed" (Esc, Ctrl+D) or "interrupted" (Ctrl+C).
 */
export async function pickInTerminal<T>(
	select: SelectOptions,
	choices: readonly UiChoice<T>[],
	streams: { stdin: NodeJS.ReadStream; stderr: NodeJS.WriteStream },
): Promise<{ value: T } | "dismissed" | "interrupted"> {
	const [{ mountPicker }, stderr] = await Promise.all([loadScreen(), terminalStream(streams.stderr)]);
	return mountPicker(select, choices, { stdin: streams.stdin, stdout: stderr, stderr, patchConsole: false });
}

/** A stream the screen draws on: without colour where the user asked for none (NO_COLOR). */
async function terminalStream(stream: NodeJS.WriteStream): Promise<NodeJS.WriteStream> {
	if (!colorRefused()) return stream;
	const { colorlessStream } = await import("./text/index.js");
	return colorlessStream(stream);
}
