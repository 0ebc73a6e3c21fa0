// What must happen however the process exits (a normal exit, a signal the CLI turns into one, an uncaught
// error): one "exit" listener for the whole process runs every hook registered here. Hooks run synchronously
// (nothing asynchronous runs during "exit"), in the order they were first registered, each on its own: one
// that throws does not keep the others from running.

const hooks = new Set<() => void>();
let installed = false;

/**
 * Runs `hook` when the process exits; registering the same function again changes nothing. Returns the function
 * that unregisters it.
 */
export function onProcessExit(hook: () => void): () => void {
	hooks.add(hook);
	if (!installed) {
		installed = true;
		process.on("exit", runExitHooks);
	}
	return () => {
		hooks.delete(hook);
	};
}

/** What the exit listener runs: every hook once, in order. */
export function runExitHooks(): void {
	for (const hook of [...hooks]) {
		try {
			hook();
		} catch {
			// The process is leaving: nothing can be reported, and the other hooks must still run.
		}
	}
}
