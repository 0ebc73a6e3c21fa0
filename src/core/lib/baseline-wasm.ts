// WebAssembly compiled with V8's baseline compiler (Liftoff) only. By default V8 also compiles a module's hot
// functions again, optimised, on background threads: for the shell grammar (1.3 MB) that was about 1.3 s of CPU,
// for the screen's layout engine (yoga) a quarter of the CPU the screen spent on a fast answer, both competing
// with the first turn on a small machine, while baseline code parses a command line, or lays out the screen's
// few dozen boxes, in well under a millisecond. The flag is V8's own (`--liftoff-only`); V8 reads it as a module
// is compiled, and code compiled under it stays baseline after the flag is cleared.
import v8 from "node:v8";

let inFlight = 0;

/** Whether Node was started with a Liftoff flag: then the user's choice stands and nothing is changed. */
function givenByUser(): boolean {
	return [...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((arg) => arg.includes("liftoff"));
}

/**
 * Runs `load` with the WebAssembly it compiles (until it settles) kept to the baseline compiler. Loads may
 * overlap: the flag stays set until the last one settles, so one finishing never lets another's module be
 * compiled optimised. Whatever else compiles WebAssembly meanwhile is compiled baseline too.
 */
export async function withBaselineWasm<T>(load: () => Promise<T>): Promise<T> {
	if (givenByUser()) return load();
	if (inFlight++ === 0) v8.setFlagsFromString("--liftoff-only");
	try {
		return await load();
	} finally {
		if (--inFlight === 0) v8.setFlagsFromString("--no-liftoff-only");
	}
}
