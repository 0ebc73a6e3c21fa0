// Outside the screen, stdout carries loom's output: the answer (print mode), the events (JSON mode) or the
// protocol (RPC, ACP). What other code in this process prints there (an extension's console.log) goes to stderr.
// The screen needs none of this: it shows console output above its frame.

export function consoleToStderr(): void {
	console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
}
