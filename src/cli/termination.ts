// The one owner of the signals that end loom (SIGINT, SIGTERM, SIGHUP), installed first thing in main, before
// anything that can take its time. While loom starts (no phase yet: stdin, the session's assembly, extensions,
// the session's opening) a signal ends it at once; while a phase runs (print mode, RPC, the screen, ACP) the phase
// is told and settles; a later signal ends loom at once.
import { stderrLine } from "../core/session/notice-text.js";
import { EXIT } from "../modes/exit-codes.js";

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

/** Installs the handlers (once); from here on no signal takes its default action or goes unheard. */
export function installTermination(): void {
	if (installed) return;
	installed = true;
	for (const signal of Object.keys(SIGNAL_EXIT_CODES) as TerminationSignal[]) process.on(signal, () => onSignal(signal));
}

/**
 * Hands the first signal to `next` until the returned function is called. A signal that came before (only
 * possible when entered from within another phase) is handed on at once.
 */
export function enterPhase(next: TerminationPhase): () => void {
	phase = next;
	if (received !== undefined) next.stop(received);
	return () => {
		if (phase === next) phase = undefined;
	};
}

function onSignal(signal: TerminationSignal): void {
	const first = received === undefined;
	received = SIGNAL_EXIT_CODES[signal];
	if (first && phase) return phase.stop(received);
	// Still starting: nothing else says why loom stops.
	if (phase) phase.leave?.();
	else if (first) process.stderr.write(stderrLine("interrupted"));
	process.exit(received);
}
