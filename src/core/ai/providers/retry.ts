// Backoff for retried provider requests: exponential with jitter, the server's retry-after honoured.

export interface RetrySettings {
	maxRetries: number;
	/** First delay; doubles each attempt (default 1 s). */
	baseDelayMs: number;
	/** Longest wait accepted; a server asking for more ends the request with an error instead. */
	maxDelayMs: number;
}

export const DEFAULT_RETRY: RetrySettings = { maxRetries: 3, baseDelayMs: 1000, maxDelayMs: 60_000 };

/**
 * Delay before retry number `attempt` (1-based): the server's retry-after when it gave one,
 * else base * 2^(attempt-1) with ±20% jitter, capped at maxDelayMs.
 */
export function retryDelayMs(attempt: number, settings: RetrySettings, retryAfterMs?: number, random = Math.random): number {
	if (retryAfterMs !== undefined) return Math.ceil(retryAfterMs);
	const exponential = settings.baseDelayMs * 2 ** (attempt - 1);
	const jitter = 1 + (random() * 0.4 - 0.2);
	return Math.min(settings.maxDelayMs, Math.round(exponential * jitter));
}

/** Resolves after `ms`, or as soon as `signal` aborts (returns false then). */
export function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<boolean> {
	return new Promise((resolve) => {
		if (signal?.aborted) return resolve(false);
		const onAbort = () => {
			clearTimeout(timer);
			resolve(false);
		};
		const timer = setTimeout(() => {
			signal?.removeEventListener("abort", onAbort);
			resolve(true);
		}, ms);
		signal?.addEventListener("abort", onAbort, { once: true });
	});
}
