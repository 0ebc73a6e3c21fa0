// How long an extension may take to load: its module's import (top-level code) and its factory each get this
// long. The timer holds the process: when a stuck extension is all that is left, loom must wait for the timeout
// and report it, not end quietly with the load still pending.

/** Gives up on an extension's import or factory that has not finished after this long. */
export const EXTENSION_LOAD_TIMEOUT_MS = 10_000;

/** `work`'s outcome, or a rejection saying the extension did not finish loading within `ms`. */
export function withLoadTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
	return new Promise<T>((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`it did not finish loading within ${ms / 1000} s.`)), ms);
		work.then(
			(value) => {
				clearTimeout(timer);
				resolve(value);
			},
			(error) => {
				clearTimeout(timer);
				reject(error);
			},
		);
	});
}
