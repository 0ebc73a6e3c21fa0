// Bounding work that may ignore an abort signal.

/** How long work may keep running after an abort before the loop stops waiting for it. */
export const ABORT_GRACE_MS = 300;

export class AbortedError extends Error {
	constructor(message = "aborted") {
		super(message);
		this.name = "AbortedError";
	}
}

/**
 * Resolves or rejects with `work`, unless the signal aborts and `work` has not settled `graceMs` later:
 * then rejects with AbortedError. Work that honours the signal settles itself within the grace period.
 */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal | undefined, graceMs = ABORT_GRACE_MS): Promise<T> {
	if (!signal) return work;
	return new Promise<T>((resolve, reject) => {
		let timer: ReturnType<typeof setTimeout> | undefined;
		const onAbort = () => {
			timer = setTimeout(() => reject(new AbortedError()), graceMs);
		};
		const cleanup = () => {
			signal.removeEventListener("abort", onAbort);
			if (timer) clearTimeout(timer);
		};
		work.then(
			(value) => {
				cleanup();
				resolve(value);
			},
			(error) => {
				cleanup();
				reject(error);
			},
		);
		if (signal.aborted) onAbort();
		else signal.addEventListener("abort", onAbort, { once: true });
	});
}
