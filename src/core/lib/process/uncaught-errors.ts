// Who answers for an error nothing caught (a throw in a timer or callback, a rejection nobody handled). Code that
// runs other people's code in loom's process (the extension host) claims the errors that are theirs; the command
// line's process-level handler offers each error here first and treats an unclaimed one as loom's own failure.
// A library installs no process handler: only the command offers errors.

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
