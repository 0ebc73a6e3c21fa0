// Waiting in tests: poll for a condition instead of sleeping a guessed time, and when it never comes, fail
// with what was awaited and what was last seen. To assert on something still to come, vitest's
// `await expect.poll(read).toX()` retries the assertion (its defaults are set in vitest.config.ts).

export interface WaitOptions<T> {
	/** Generous by default: machines running the tests may be slow and busy. */
	timeoutMs?: number;
	intervalMs?: number;
	/** What is awaited, for the failure message ("the frame to show the answer"). */
	what?: string;
	/** The failure message's account of the last value ("Last frame: …"). */
	show?: (value: T) => string;
}

/**
 * Reads a value until `check` accepts it (by default: until it is truthy) and returns that value.
 * An error thrown by `read` or `check` ends the wait at once.
 */
export async function waitFor<T>(read: () => T | Promise<T>, check: (value: T) => boolean = Boolean, options: WaitOptions<T> = {}): Promise<T> {
	const { timeoutMs = 60_000, intervalMs = 10, what = "the condition", show = (value) => `Last seen: ${String(value)}` } = options;
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (check(value)) return value;
		if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.\n${show(value)}`);
		await sleep(intervalMs);
	}
}

/** For tests about time itself (a delay that must pass, a process that must outlive one); otherwise use waitFor. */
export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
