// Drives one provider request to an event stream: attempts, retries with backoff, the idle timeout and abort.
// Providers only say how to send one attempt; everything that can go wrong ends here as an `error` event. Retried
// requests back off exponentially with jitter, the server's retry-after honoured.
import { performance } from "node:perf_hooks";
import { errorMessage, formatCount, redactSecrets } from "../../lib/index.js";
import { createAssistantMessageEventStream } from "../messages.js";
import type { AssistantMessageEventStream, Model, StopReason, StreamOptions } from "../llm-types.js";
import { providerApiKey } from "../api-keys.js";
import { PartialAssistantMessage } from "./partial-message.js";
import { httpFetch, type SdkFetchOptions } from "./http-fetch.js";
import { checkBaseUrl, describeProviderError, ProviderStreamError } from "./provider-error.js";

export const DEFAULT_IDLE_TIMEOUT_MS = 5 * 60_000;

/** StreamOptions plus knobs mostly useful to tests and to the session layer. */
export interface ProviderStreamOptions extends StreamOptions {
	/** First retry delay, doubled on each retry (default 1000 ms). */
	retryBaseDelayMs?: number;
	/** Longest wait accepted before a retry (default 60 s); a longer retry-after ends the request. */
	maxRetryDelayMs?: number;
}

export type FinishReason = Extract<StopReason, "stop" | "length" | "toolUse">;

export interface AttemptContext {
	/** Aborted on user abort and on idle timeout. */
	signal: AbortSignal;
	partial: PartialAssistantMessage;
	/**
	 * Call when the response arrives and after each chunk read: resets the idle timer when the message moved
	 * forward since the last call (the first call always counts). Keep-alives and empty deltas do not move it,
	 * so a server sending only those still meets the idle timeout. Returns a promise while the stream's consumer
	 * is far behind: await it before reading on (it resolves on abort too); the idle timer waits meanwhile.
	 */
	touch(): Promise<void> | undefined;
	/** Options for the attempt's fetch (an SDK's fetchOptions): they tell the run when the request has gone. */
	fetchOptions: SdkFetchOptions;
}

/** Sends one request and reads its stream into `partial`; throws on any failure. */
export type ProviderAttempt = (context: AttemptContext) => Promise<FinishReason>;

export interface ProviderRun {
	model: Model;
	options?: ProviderStreamOptions;
	apiKey?: string;
	/** One-time setup (lazy SDK import, client); a thrown error ends the stream with its message. */
	prepare(): Promise<ProviderAttempt>;
}

type AttemptOutcome =
	| { kind: "done"; reason: FinishReason }
	| { kind: "aborted" }
	| { kind: "idle" }
	| { kind: "failed"; error: unknown };

export function runProviderStream(run: ProviderRun): AssistantMessageEventStream {
	const stream = createAssistantMessageEventStream();
	const partial = new PartialAssistantMessage(run.model, stream);
	drive(run, partial).catch((error: unknown) => {
		partial.fail("error", redactSecrets(`Internal error while streaming: ${errorMessage(error)}`, run.apiKey));
	});
	return stream;
}

/**
 * runProviderStream for an API that needs a key: the explicit one, else the provider's environment variable.
 * Without one nothing is sent, and the stream ends saying what to set.
 */
export function runKeyedProviderStream(
	model: Model,
	options: ProviderStreamOptions,
	prepare: (apiKey: string) => Promise<ProviderAttempt>,
): AssistantMessageEventStream {
	const key = providerApiKey(model, options.apiKey);
	return runProviderStream({
		model,
		options,
		apiKey: key.apiKey,
		prepare() {
			if (!key.apiKey) throw new ProviderStreamError(key.missingMessage);
			return prepare(key.apiKey);
		},
	});
}

async function drive(run: ProviderRun, partial: PartialAssistantMessage): Promise<void> {
	const { model, options = {} } = run;
	const signal = options.signal;
	const settings: RetrySettings = {
		maxRetries: Math.max(0, options.maxRetries ?? DEFAULT_RETRY.maxRetries),
		baseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
		maxDelayMs: options.maxRetryDelayMs ?? DEFAULT_RETRY.maxDelayMs,
	};
	const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
	const fail = (message: string) => partial.fail("error", redactSecrets(message, run.apiKey));
	const aborted = () => partial.fail("aborted", "Request aborted.");

	partial.start();
	if (signal?.aborted) return aborted();

	let attempt: ProviderAttempt;
	try {
		checkBaseUrl(model.provider, model.baseUrl);
		attempt = await run.prepare();
	} catch (error) {
		return fail(describeProviderError(error, model.provider, model.baseUrl, false).message);
	}

	for (let retries = 0; ; retries++) {
		if (signal?.aborted) return aborted();
		const outcome = await runAttempt(attempt, partial, signal, idleMs, options.onRequest);
		if (outcome.kind === "done") return partial.finish(outcome.reason);
		if (outcome.kind === "aborted") return aborted();
		if (outcome.kind === "idle") {
			return fail(`No data from ${model.provider} for ${formatSeconds(idleMs)} (idle timeout); the request was cancelled.`);
		}

		const failure = describeProviderError(outcome.error, model.provider, model.baseUrl, partial.hasContent);
		if (failure.retryable && !partial.hasContent && retries < settings.maxRetries) {
			const delayMs = retryDelayMs(retries + 1, settings, failure.retryAfterMs);
			if (delayMs <= settings.maxDelayMs) {
				notifyRetry(options, { attempt: retries + 1, maxRetries: settings.maxRetries, delayMs, reason: failure.reason });
				partial.resetForRetry();
				if (!(await sleepUnlessAborted(delayMs, signal))) return aborted();
				continue;
			}
			return fail(`${failure.message} (the server asked to wait ${formatSeconds(delayMs)} before retrying)`);
		}
		const suffix = retries > 0 ? ` (gave up after ${formatCount(retries, "retry", "retries")})` : "";
		return fail(failure.message + suffix);
	}
}

async function runAttempt(
	attempt: ProviderAttempt,
	partial: PartialAssistantMessage,
	userSignal: AbortSignal | undefined,
	idleMs: number,
	onRequest: (() => void) | undefined,
): Promise<AttemptOutcome> {
	const controller = new AbortController();
	const onUserAbort = () => controller.abort();
	userSignal?.addEventListener("abort", onUserAbort, { once: true });
	let idle = false;
	// touch() runs for every chunk, so it only notes the clock; the one timer re-arms itself for whatever
	// remains of the idle period when it fires (a timer reset per event cost more than the parsing).
	let lastActivity = waitedMs();
	let seenProgress = -1;
	/** Reading waits for the consumer: the server is not idle, it waits for us. */
	let waitingForConsumer = false;
	const touch = () => {
		if (partial.progress !== seenProgress) {
			seenProgress = partial.progress;
			lastActivity = waitedMs();
		}
		const behind = partial.consumerBehind();
		if (!behind) return undefined;
		waitingForConsumer = true;
		return untilAborted(behind, controller.signal).then(() => {
			waitingForConsumer = false;
			lastActivity = waitedMs();
		});
	};
	const check = () => {
		const silentFor = waitingForConsumer ? 0 : waitedMs() - lastActivity;
		if (silentFor >= idleMs) {
			idle = true;
			controller.abort();
		} else {
			timer = setTimeout(check, idleMs - silentFor);
		}
	};
	let timer: ReturnType<typeof setTimeout> = setTimeout(check, idleMs);
	// The SDKs end their iterators quietly on abort, so abort and idle are checked after success too.
	const interrupted = (): AttemptOutcome | undefined =>
		userSignal?.aborted ? { kind: "aborted" } : idle ? { kind: "idle" } : undefined;
	try {
		let told = false;
		const onSent = () => {
			if (told) return;
			told = true;
			try {
				onRequest?.();
			} catch {
				// A listener's failure is not the request's.
			}
		};
		const reason = await attempt({ signal: controller.signal, partial, touch, fetchOptions: { onSent } });
		return interrupted() ?? { kind: "done", reason };
	} catch (error) {
		controller.abort();
		return interrupted() ?? { kind: "failed", error };
	} finally {
		clearTimeout(timer);
		userSignal?.removeEventListener("abort", onUserAbort);
	}
}

/**
 * The idle clock: milliseconds this thread's event loop has spent waiting (for the network among others) since it
 * started. Silence is measured on it rather than on the wall clock, so time loom spends working — a consumer that
 * holds the loop, the SDK's and fetch's first-use loading, parsing a burst, a machine too busy to run us — never
 * counts as the server's: data that arrived meanwhile waits unread in the socket, it was not missing.
 */
function waitedMs(): number {
	return performance.eventLoopUtilization().idle;
}

/** Resolves with `work`, or as soon as the signal aborts. */
function untilAborted(work: Promise<void>, signal: AbortSignal): Promise<void> {
	if (signal.aborted) return Promise.resolve();
	return new Promise((resolve) => {
		const done = () => {
			signal.removeEventListener("abort", done);
			resolve();
		};
		signal.addEventListener("abort", done, { once: true });
		void work.then(done);
	});
}

function notifyRetry(options: ProviderStreamOptions, info: Parameters<NonNullable<StreamOptions["onRetry"]>>[0]): void {
	try {
		options.onRetry?.(info);
	} catch {
		// A failing UI callback must not break the request.
	}
}

function formatSeconds(ms: number): string {
	const seconds = ms / 1000;
	return seconds >= 1 ? `${Math.round(seconds * 10) / 10}s` : `${Math.round(ms)}ms`;
}

/** Client options both SDKs share. Retries are ours, so each one is observable and abortable. */
export function sdkClientOptions(model: Model, apiKey: string, options: ProviderStreamOptions) {
	return {
		apiKey,
		baseURL: model.baseUrl,
		maxRetries: 0,
		timeout: Math.max(options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, 600_000),
		logLevel: "off" as const,
		defaultHeaders: { ...model.headers, ...options.headers },
		fetch: httpFetch,
	};
}

/** SDK clients by kind and options: one is made once and serves every request with the same key, model and headers. */
const clients = new Map<string, unknown>();
/** Clients kept at most (a process switching keys or endpoints often drops the oldest). */
const MAX_CLIENTS = 8;

/** The SDK client for these options, made by `make` the first time. */
export function reusedClient<Options extends object, Client>(kind: string, options: Options, make: (options: Options) => Client): Client {
	const key = `${kind}\0${JSON.stringify(options)}`;
	let client = clients.get(key) as Client | undefined;
	if (client === undefined) {
		client = make(options);
		if (clients.size >= MAX_CLIENTS) clients.delete(clients.keys().next().value!);
		clients.set(key, client);
	}
	return client;
}

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
