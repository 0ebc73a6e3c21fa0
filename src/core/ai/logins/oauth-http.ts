// The HTTP parts every sign-in shares: JSON from a form or JSON POST, PKCE, a JWT's claims, the wait between polls.
// Errors name the step and the server's own error code, never a token.
import { createHash, randomBytes } from "node:crypto";
import { readBodyStart } from "../../lib/index.js";

/** How long a sign-in waits for the user (a device code typed, a browser coming back) before it gives up. */
export const SIGN_IN_TIMEOUT_MS = 15 * 60_000;

/** The most of a sign-in server's answer loom reads: its JSON is a few KB. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** A sign-in step the server refused; `code` is its OAuth error ("invalid_grant", "authorization_pending"…). */
export class LoginHttpError extends Error {
	constructor(
		message: string,
		readonly status: number,
		readonly code: string | undefined,
		readonly body: Record<string, unknown>,
	) {
		super(message);
		this.name = "LoginHttpError";
	}
}

export interface JsonRequest {
	method?: "GET" | "POST";
	/** A form body (application/x-www-form-urlencoded). */
	form?: Record<string, string>;
	/** A JSON body. */
	json?: unknown;
	headers?: Record<string, string>;
	signal?: AbortSignal;
}

/** The JSON object a sign-in endpoint answers; a status over 399 throws LoginHttpError naming `step`. */
export async function requestJson(url: string, step: string, request: JsonRequest = {}): Promise<Record<string, unknown>> {
	const headers: Record<string, string> = { Accept: "application/json", ...request.headers };
	let body: string | undefined;
	if (request.form) {
		headers["Content-Type"] = "application/x-www-form-urlencoded";
		body = new URLSearchParams(request.form).toString();
	} else if (request.json !== undefined) {
		headers["Content-Type"] = "application/json";
		body = JSON.stringify(request.json);
	}
	let response: Response;
	try {
		response = await fetch(url, { method: request.method ?? (body === undefined ? "GET" : "POST"), headers, body, signal: request.signal });
	} catch (error) {
		if (request.signal?.aborted) throw new Error("Sign-in cancelled.");
		throw new Error(`${step}: cannot reach ${new URL(url).origin} (${(error as Error).message}).`);
	}
	const text = await readBodyStart(response, MAX_ANSWER_BYTES + 1);
	if (Buffer.byteLength(text) > MAX_ANSWER_BYTES) {
		throw new Error(`${step}: the answer from ${new URL(url).origin} is over 1 MB; it is not a sign-in server's.`);
	}
	let parsed: unknown;
	try {
		parsed = text === "" ? {} : JSON.parse(text);
	} catch {
		parsed = undefined;
	}
	const record = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
	if (response.status >= 400) {
		const code = oauthErrorCode(record);
		const description = typeof record.error_description === "string" ? `: ${record.error_description.slice(0, 200)}` : "";
		throw new LoginHttpError(`${step} failed: HTTP ${response.status}${code ? ` (${code})` : ""}${description}`, response.status, code, record);
	}
	if (parsed === undefined) throw new LoginHttpError(`${step} failed: the answer from ${new URL(url).origin} is not JSON.`, response.status, undefined, {});
	return record;
}

function oauthErrorCode(body: Record<string, unknown>): string | undefined {
	if (typeof body.error === "string") return body.error;
	const nested = body.error as Record<string, unknown> | undefined;
	if (nested && typeof nested.code === "string") return nested.code;
	return undefined;
}

/** A string field of an answer, or an error naming the step and the field. */
export function field(body: Record<string, unknown>, name: string, step: string): string {
	const value = body[name];
	if (typeof value === "string" && value !== "") return value;
	throw new Error(`${step}: the answer has no "${name}".`);
}

export function numberField(body: Record<string, unknown>, name: string, fallback: number): number {
	const value = body[name];
	return typeof value === "number" && Number.isFinite(value) ? value : typeof value === "string" && /^\d+$/.test(value) ? Number(value) : fallback;
}

export interface Pkce {
	verifier: string;
	challenge: string;
}

/** RFC 7636 S256: a random verifier and its SHA-256 challenge, both base64url. */
export function createPkce(): Pkce {
	const verifier = randomBytes(32).toString("base64url");
	return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export function randomState(): string {
	return randomBytes(16).toString("hex");
}

/** The claims of a JWT (not verified: loom only reads what the issuer said about the account). */
export function jwtClaims(token: string): Record<string, unknown> {
	const payload = token.split(".")[1];
	if (!payload) return {};
	try {
		const value = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
		return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
	} catch {
		return {};
	}
}

/** Waits `ms`, or rejects "Sign-in cancelled." when `signal` aborts. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal?.aborted) return reject(new Error("Sign-in cancelled."));
		const timer = setTimeout(() => {
			signal?.removeEventListener("abort", onAbort);
			resolve();
		}, ms);
		const onAbort = () => {
			clearTimeout(timer);
			reject(new Error("Sign-in cancelled."));
		};
		signal?.addEventListener("abort", onAbort, { once: true });
	});
}
