// How the process leaves, loaded with the command's first module (the signal handling needs it).
//
// What must happen however the process exits (a normal exit, a signal the CLI turns into one, an uncaught
// error): one "exit" listener for the whole process runs every hook registered with onProcessExit. Hooks run
// synchronously (nothing asynchronous runs during "exit"), in the order they were first registered, each on its
// own: one that throws does not keep the others from running.
//
// And who answers for an error nothing caught (a throw in a timer or callback, a rejection nobody handled). Code that
// runs other people's code in loom's process (the extension host) claims the errors that are theirs; the command
// line's process-level handler offers each error here first and treats an unclaimed one as loom's own failure.
// A library installs no process handler: only the command offers errors.

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

/** True: the error is this claimer's, and it has dealt with it (the process goes on). */
export type UncaughtErrorClaimer = (error: unknown) => boolean;

const claimers = new Set<UncaughtErrorClaimer>();

/** Adds a claimer; returns the function that removes it. */
export function claimUncaughtErrors(claimer: UncaughtErrorClaimer): () => void {
	claimers.add(claimer);
	return () => {
		claimers.delete(claimer);
	};
}

/** Offers an uncaught error to each claimer in turn; true once one has taken it. A claimer that throws takes nothing. */
export function offerUncaughtError(error: unknown): boolean {
	for (const claimer of [...claimers]) {
		try {
			if (claimer(error)) return true;
		} catch {
			// The error stays unclaimed: the caller reports it as loom's own.
		}
	}
	return false;
}
