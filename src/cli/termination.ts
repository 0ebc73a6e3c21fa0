// The one owner of the signals that end loom (SIGINT, SIGTERM, SIGHUP), installed first thing in main, before
// anything that can take its time. While loom starts (no phase yet: stdin, the session's assembly, extensions,
// the session's opening) a signal ends it at once; while a phase runs (print mode, RPC, the screen, ACP) the phase
// is told and settles; a later signal ends loom at once. Once a signal has come, loom's exit code is the signal's,
// whatever fails on the way out. A terminal that goes away fails every read and write (EIO) and sends SIGHUP, in
// either order: the first failure counts as the hang-up.
import { closeSync, openSync } from "node:fs";
import { isatty } from "node:tty";
import { offerUncaughtError, onProcessExit, stderrLine } from "../core/index.js";
import { EXIT } from "./run-io.js";

type TerminationSignal = "SIGINT" | "SIGTERM" | "SIGHUP";

/** 128 + the signal's number, as a shell reports it. */
const SIGNAL_EXIT_CODES: Readonly<Record<TerminationSignal, number>> = {
	SIGINT: EXIT.interrupted,
	SIGTERM: EXIT.terminated,
	SIGHUP: EXIT.hangup,
};

/** What runs while a phase holds the signals. */
export interface TerminationPhase {
	/** The first signal: stop what runs and let it settle; the phase then ends with `exitCode`. */
	stop(exitCode: number): void;
	/** A later signal, just before loom leaves at once: record what must be recorded (the session's running tool). */
	leave?(): void;
}

let installed = false;
/** The exit code of the last signal received. */
let received: number | undefined;
let phase: TerminationPhase | undefined;
let hungUp = false;

/** Installs the handlers (once); from here on no signal takes its default action or goes unheard. */
export function installTermination(): void {
	if (installed) return;
	installed = true;
	for (const signal of Object.keys(SIGNAL_EXIT_CODES) as TerminationSignal[]) process.on(signal, () => onSignal(signal));
	for (const fd of startedAsTerminals) stdio()[fd]?.on("error", terminalGone);
	// Once a signal has come, its code is the exit code, whatever a phase returned or a failure after it set.
	onProcessExit(() => {
		if (received !== undefined) process.exitCode = received;
		detachGoneTerminal();
	});
}

/** Hands the first signal to `next` until the returned function is called (phases follow one another). */
export function enterPhase(next: TerminationPhase): () => void {
	phase = next;
	return () => {
		if (phase === next) phase = undefined;
	};
}

function onSignal(signal: TerminationSignal): void {
	const first = received === undefined;
	received = SIGNAL_EXIT_CODES[signal];
	// The terminal went away: what loom still writes to it fails, and is no error of loom's.
	if (signal === "SIGHUP" && !hungUp) ignoreStdioErrors();
	if (first && phase) return phase.stop(received);
	// Still starting: nothing else says why loom stops.
	if (phase) phase.leave?.();
	else if (first) process.stderr.write(stderrLine("interrupted"));
	process.exit(received);
}

/** A terminal failed a read or write: it went away, which is a hang-up whether or not SIGHUP came yet. */
function terminalGone(): void {
	if (received === undefined) onSignal("SIGHUP");
}

function stdio(): (NodeJS.ReadStream | NodeJS.WriteStream)[] {
	return [process.stdin, process.stdout, process.stderr];
}

function ignoreStdioErrors(): void {
	hungUp = true;
	for (const stream of stdio()) stream.on("error", () => {});
}

// As the process exits, Node puts each standard stream that was a terminal at start back into its start-up mode,
// and aborts (exit 134) when that fails, as it does once the terminal has gone away (EIO after a hang-up; Node
// before 24, nodejs/node#51519). A stream whose terminal is gone is pointed at /dev/null first: Node takes it for
// one the program reopened and leaves it alone.

/** The standard streams that were terminals when loom started. */
const startedAsTerminals: readonly number[] = [0, 1, 2].filter((fd) => isatty(fd));

/** For the process's exit: each standard stream whose terminal went away (no longer answers as one) is detached. */
function detachGoneTerminal(): void {
	for (const fd of startedAsTerminals) {
		if (isatty(fd)) continue;
		try {
			closeSync(fd);
			// The lowest free descriptor: `fd` itself, the ones below it being open.
			const opened = openSync("/dev/null", fd === 0 ? "r" : "w");
			if (opened !== fd) closeSync(opened);
		} catch {
			// Leaving: nothing can be reported, and the other streams must still be detached.
		}
	}
}

// And how loom's process ends when something escapes the command: an error nothing caught, or an event loop that runs
// dry while the command still waits. An uncaught error is first offered to whoever runs foreign code in the
// process (an extension's throw in its own timer is its host's to report, and the run ends as an error); any other
// is loom's own failure, said in one line as main says one. A command that has not finished never ends in exit 0.
/** `finished`: whether the command has come to its end (its exit code is known). */
export function installProcessGuards(finished: () => boolean): void {
	process.on("uncaughtException", (error) => {
		if (offerUncaughtError(error)) return;
		process.stderr.write(stderrLine(`unexpected error: ${(error as Error | undefined)?.stack ?? String(error)}`));
		process.exit(EXIT.failure);
	});
	// Exit code 0 here means nobody chose one: the loop ran dry, so what the command waited for can never come.
	onProcessExit(() => {
		if (finished() || (process.exitCode !== undefined && process.exitCode !== 0)) return;
		process.stderr.write(stderrLine("stopped before the work was done: it waited on something that can never happen (please report this)."));
		process.exitCode = EXIT.failure;
	});
}
