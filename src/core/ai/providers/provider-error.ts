// What went wrong with a provider request, read from SDK errors by shape (the SDKs are loaded lazily,
// so their classes are not at hand): a clear message, and whether retrying can help. And "the conversation no
// longer fits", recognised from any provider's failure, so the session can compact and retry.
import { OPTION_WORDING } from "../api-keys.js";
import type { AssistantMessage } from "../llm-types.js";
import { BUILTIN_PROVIDERS } from "../models-catalog.js";

export interface ProviderFailure {
	message: string;
	retryable: boolean;
	/** HTTP status when the server answered with one. */
	status?: number;
	/** Delay the server asked for (retry-after-ms / retry-after), in milliseconds. */
	retryAfterMs?: number;
	/** Short reason for retry notices, e.g. "rate limited (429)". */
	reason: string;
}

/** A failure a provider detected itself (stream ended early, refusal...). */
export class ProviderStreamError extends Error {
	constructor(
		message: string,
		readonly retryable = false,
	) {
		super(message);
		this.name = "ProviderStreamError";
	}
}

/** Error types (in a stream, or a body sent instead of one) that say the server is busy or broken for now. */
export const RETRYABLE_STREAM_ERROR_TYPES = new Set(["overloaded_error", "api_error", "rate_limit_error", "rate_limit_exceeded", "server_error"]);
const CONNECTION_CODES = new Set([
	"ECONNREFUSED",
	"ECONNRESET",
	"EPIPE",
	"ETIMEDOUT",
	"ENOTFOUND",
	"EAI_AGAIN",
	"ENETUNREACH",
	"EHOSTUNREACH",
	"UND_ERR_SOCKET",
	"UND_ERR_CONNECT_TIMEOUT",
	"UND_ERR_HEADERS_TIMEOUT",
	"UND_ERR_BODY_TIMEOUT",
	"UND_ERR_CLOSED",
]);

interface ErrorLike {
	name?: string;
	message?: string;
	status?: number;
	code?: string;
	type?: string | null;
	headers?: { get(name: string): string | null } | Record<string, string>;
	error?: any;
	cause?: unknown;
}

/**
 * Describes an error thrown while opening or reading a provider stream.
 * `contentStarted` tells whether the failure came after the response began (the message wording differs).
 */
export function describeProviderError(error: unknown, provider: string, baseUrl: string, contentStarted: boolean): ProviderFailure {
	if (error instanceof ProviderStreamError) {
		return { message: error.message, retryable: error.retryable, reason: error.message };
	}
	const e = (typeof error === "object" && error !== null ? error : { message: String(error) }) as ErrorLike;

	if (typeof e.status === "number") {
		const status = e.status;
		const type = errorLabel(e);
		const detail = apiMessage(e) ?? e.message ?? "";
		const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
		const hint = status === 401 || status === 403 ? refusedKeyHint(provider) : "";
		return {
			message: `${provider} API error ${status}${type ? ` (${type})` : ""}: ${stripStatusPrefix(detail, status)}${hint}`,
			retryable,
			status,
			retryAfterMs: retryAfterMs(e.headers),
			reason: status === 429 ? "rate limited (429)" : status === 529 || type === "overloaded_error" ? `overloaded (${status})` : `server error ${status}`,
		};
	}

	// An error event inside a 200 stream (Anthropic `event: error`, OpenAI `data: {"error": ...}`).
	const streamType = errorType(e);
	if (e.error !== undefined && e.error !== null && className(e) !== "APIConnectionError") {
		const detail = apiMessage(e) ?? e.message ?? "unknown error";
		return {
			message: `${provider} stream error${streamType ? ` (${errorLabel(e)})` : ""}: ${detail}`,
			retryable: RETRYABLE_STREAM_ERROR_TYPES.has(streamType ?? ""),
			reason: streamType === "overloaded_error" ? "overloaded" : (streamType ?? "stream error"),
		};
	}

	if (error instanceof SyntaxError) {
		return {
			message: `Malformed event from ${provider} (${baseUrl}): ${e.message}`,
			retryable: false,
			reason: "malformed event",
		};
	}

	const cause = rootCause(error);
	if (isConnectionFailure(e, cause)) {
		const what = describeCause(cause);
		return contentStarted
			? { message: `Connection to ${provider} (${baseUrl}) was lost mid-response: ${what}`, retryable: true, reason: "connection lost" }
			: { message: `Could not connect to ${provider} at ${baseUrl}: ${what}`, retryable: true, reason: "connection failed" };
	}

	if (/invalid url/i.test(e.message ?? "")) {
		return { message: invalidBaseUrlMessage(provider, baseUrl), retryable: false, reason: "invalid base URL" };
	}
	return { message: `${provider} request failed: ${e.message ?? String(error)}`, retryable: false, reason: "request failed" };
}

/**
 * Throws when a base URL can never be reached (not a URL, or not http/https), so nothing is sent or retried.
 * `option`: how the caller's user sets it (default: the baseUrl option).
 */
export function checkBaseUrl(provider: string, baseUrl: string, option = OPTION_WORDING.baseUrl): void {
	// Empty: the SDK's own default applies.
	if (baseUrl === "") return;
	let url: URL | undefined;
	try {
		url = new URL(baseUrl);
	} catch {}
	if (url?.protocol === "http:" || url?.protocol === "https:") return;
	throw new ProviderStreamError(invalidBaseUrlMessage(provider, baseUrl, url ? `"${url.protocol}" is not http: or https:` : "not a URL", option));
}

function invalidBaseUrlMessage(provider: string, baseUrl: string, why?: string, option = OPTION_WORDING.baseUrl): string {
	return `Invalid base URL for ${provider}: "${baseUrl}" (${why ? `${why}; ` : ""}set by ${option}, the *_BASE_URL variable or models.json); use a full http:// or https:// URL such as http://localhost:11434/v1`;
}

function errorType(e: ErrorLike): string | undefined {
	const type = e.type ?? e.error?.error?.type ?? e.error?.type ?? e.error?.code;
	return typeof type === "string" && type ? type : undefined;
}

/** "type" or "type, code" (OpenAI puts the precise reason, e.g. context_length_exceeded, in code). */
function errorLabel(e: ErrorLike): string | undefined {
	const type = errorType(e);
	const code = e.code ?? e.error?.code ?? e.error?.error?.code;
	if (typeof code === "string" && code && code !== type) return type ? `${type}, ${code}` : code;
	return type;
}

function className(e: ErrorLike): string | undefined {
	return e.name && e.name !== "Error" ? e.name : (e as any).constructor?.name;
}

function apiMessage(e: ErrorLike): string | undefined {
	const message = e.error?.error?.message ?? e.error?.message;
	return typeof message === "string" && message ? message : undefined;
}

function stripStatusPrefix(text: string, status: number): string {
	return text.startsWith(`${status} `) ? text.slice(String(status).length + 1) : text;
}

function rootCause(error: unknown): { code?: string; message?: string } {
	let current: any = error;
	for (let depth = 0; depth < 5 && current?.cause; depth++) current = current.cause;
	return { code: typeof current?.code === "string" ? current.code : undefined, message: current?.message };
}

function describeCause(cause: { code?: string; message?: string }): string {
	if (!cause.message) return cause.code ?? "connection failed";
	// undici's own codes add nothing for a reader; system codes (ECONNREFUSED...) do.
	if (cause.code && !cause.code.startsWith("UND_ERR") && !cause.message.includes(cause.code)) {
		return `${cause.message} (${cause.code})`;
	}
	return cause.message;
}

function isConnectionFailure(e: ErrorLike, cause: { code?: string; message?: string }): boolean {
	const name = className(e);
	if (name === "APIConnectionError" || name === "APIConnectionTimeoutError") return true;
	if (cause.code && CONNECTION_CODES.has(cause.code)) return true;
	const text = `${e.message ?? ""} ${cause.message ?? ""}`.toLowerCase();
	return /terminated|socket hang up|fetch failed|other side closed|network|econnreset|premature close/.test(text);
}

/** Reads retry-after-ms, then retry-after (seconds or an HTTP date). */
export function retryAfterMs(headers: ErrorLike["headers"]): number | undefined {
	if (!headers) return undefined;
	const get = (name: string): string | null | undefined =>
		typeof (headers as any).get === "function" ? (headers as any).get(name) : (headers as Record<string, string>)[name];
	const ms = Number.parseFloat(get("retry-after-ms") ?? "");
	if (Number.isFinite(ms) && ms >= 0) return ms;
	const value = get("retry-after");
	if (!value) return undefined;
	const seconds = Number.parseFloat(value);
	if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
	const date = Date.parse(value);
	return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/** What each provider says when the context was too long. */
const OVERFLOW_PATTERNS: RegExp[] = [
	/prompt is too long/i, // Anthropic
	/model_context_window_exceeded/i, // Anthropic stop reason
	/request_too_large/i, // Anthropic 413
	/context_length_exceeded/i, // OpenAI code (Chat Completions and Responses)
	/input exceeds the context window/i, // OpenAI Responses
	/input token count.*exceeds the maximum/i, // Gemini
	/maximum context length/i, // OpenAI, vLLM, OpenRouter, Groq
	/exceeds? (the )?(available )?context (size|window|length)/i, // llama.cpp, Ollama, others
	/exceed_context_size_error/i, // llama.cpp type
	/context (length|window) (of|is) (only )?\d+/i, // LM Studio
	/prompt too long/i, // Ollama
	/input (is )?too long/i,
	/reduce the length of the messages/i,
	/token limit exceeded/i,
];

/**
 * True when the message failed because the context was too long. With `contextWindow`, also true for a
 * "successful" reply whose reported input already exceeds the window (servers that truncate silently).
 */
export function isContextOverflow(message: AssistantMessage, contextWindow?: number): boolean {
	if (message.stopReason === "error") {
		const text = message.errorMessage ?? "";
		// Token-per-minute rate limits talk about tokens too, but compaction would not help them.
		if (/rate.?limit|\b429\b/i.test(text)) return false;
		return OVERFLOW_PATTERNS.some((pattern) => pattern.test(text));
	}
	if (contextWindow && contextWindow > 0 && message.stopReason !== "aborted") {
		return message.usage.input + message.usage.cacheRead > contextWindow;
	}
	return false;
}

/** What to check when a provider refuses the request's credential: the key, or for a plan its login. */
function refusedKeyHint(provider: string): string {
	const plan = BUILTIN_PROVIDERS[provider]?.login;
	if (plan) return ` (the ${plan.title} login was refused: it expired or was revoked; run loom login ${provider} to sign in again)`;
	return " (check the API key for this provider)";
}
