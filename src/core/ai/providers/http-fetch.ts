// The providers' fetch: Node's http and https modules with a keep-alive agent each. Node's own fetch (undici) spends
// about a millisecond and a half of CPU and a few of latency per streamed request in its WHATWG machinery, and a tool
// loop makes one request a turn. What the SDKs use keeps fetch's meaning: method, headers, a text or byte body, an
// abort signal; a Response whose body streams as the socket delivers it (read no faster than its reader: the socket
// pauses); failures as fetch reports them ("fetch failed" before the answer, "terminated" during it, the system error
// as the cause; an abort rejects or errors with the signal's reason). Anything else (a stream or form body, a
// redirect answer, another scheme) is handed to Node's fetch.
import http from "node:http";
import https from "node:https";
import zlib from "node:zlib";

type FetchInput = Parameters<typeof fetch>[0];
type FetchInit = NonNullable<Parameters<typeof fetch>[1]>;

/**
 * What loom's providers add to fetch's options (the SDKs pass their fetchOptions through): `onSent` is called once
 * the request has been written to the connection, or, for a request handed to Node's fetch, as it is handed over.
 */
export interface SentNotice {
	onSent?: () => void;
}

/** Options an SDK's request may pass on to its fetch: those it sets itself left out. */
export type SdkFetchOptions = Omit<FetchInit, "body" | "headers" | "method" | "signal"> & SentNotice;

/**
 * Free sockets are unreferenced by Node's agent: an idle connection never holds the process open. With a timeout
 * set, the agent also closes a free socket a second before the server's announced keep-alive timeout ends (without
 * one it ignores the announcement); a request's own silence is not limited by it.
 */
const agentOptions = { keepAlive: true, timeout: 60_000 };
const agents: Record<string, http.Agent> = {
	"http:": new http.Agent(agentOptions),
	"https:": new https.Agent(agentOptions),
};

/**
 * How often a request is sent again on a fresh connection when a kept-alive one turns out closed before any answer:
 * the server closed it idle as the request went out, so never read it (browsers resend in this case too).
 */
const STALE_SOCKET_RETRIES = 2;
const STALE_SOCKET_CODES = new Set(["ECONNRESET", "EPIPE"]);

/** Answers that carry no body, whatever the server sends (fetch gives them a null body). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** fetch, for string or URL targets with a text or byte body; see the file's head. */
export function httpFetch(input: FetchInput, init: FetchInit & SentNotice = {}): Promise<Response> {
	const body = init.body;
	const url = typeof input === "string" || input instanceof URL ? new URL(input) : undefined;
	const agent = url && agents[url.protocol];
	if (!url || !agent || !(body === undefined || body === null || typeof body === "string" || body instanceof Uint8Array)) {
		init.onSent?.();
		return fetch(input, init);
	}
	const signal = init.signal ?? undefined;
	if (signal?.aborted) return Promise.reject(signal.reason);
	const method = (init.method ?? "GET").toUpperCase();
	const headers = headerRecord(init.headers);
	if (body !== undefined && body !== null && !("content-length" in headers)) headers["content-length"] = String(Buffer.byteLength(body));
	const transport = url.protocol === "https:" ? https : http;

	return new Promise<Response>((resolve, reject) => {
		let settled = false;
		let request: http.ClientRequest;
		const onAbort = () => request.destroy(signal!.reason);
		signal?.addEventListener("abort", onAbort, { once: true });
		const stopListening = () => signal?.removeEventListener("abort", onAbort);
		const send = (retriesLeft: number) => {
			request = transport.request(url, { method, headers, agent });
			request.once("error", (error: NodeJS.ErrnoException) => {
				if (settled) return;
				if (request.reusedSocket && retriesLeft > 0 && STALE_SOCKET_CODES.has(error.code ?? "") && !signal?.aborted) return send(retriesLeft - 1);
				stopListening();
				settled = true;
				reject(signal?.aborted ? signal.reason : new TypeError("fetch failed", { cause: error }));
			});
			request.once("response", (answer) => onResponse(answer));
			request.once("finish", () => {
				init.onSent?.();
				warmUpFetch();
			});
			request.end(body ?? undefined);
		};
		const onResponse = (answer: http.IncomingMessage) => {
			settled = true;
			const status = answer.statusCode ?? 0;
			if (REDIRECT_STATUSES.has(status) && answer.headers.location !== undefined && init.redirect !== "manual") {
				stopListening();
				answer.resume();
				resolve(fetch(input, init));
				return;
			}
			const responseBody = NULL_BODY_STATUSES.has(status) || method === "HEAD" ? null : bodyStream(answer, signal, stopListening);
			if (responseBody === null) {
				stopListening();
				answer.resume();
			}
			resolve(new Response(responseBody, { status, statusText: answer.statusMessage, headers: headerPairs(answer.rawHeaders) }));
		};
		send(STALE_SOCKET_RETRIES);
	});
}

let warmedUp = false;

/**
 * The first Response loads Node's fetch implementation and sets up web streams (and a fresh context for an internal
 * pattern when a body's reader is released): 30-50 ms once per process. Done when the first request has been
 * written, while the server works on it, or sooner when the session sits idle (the screen's preloads), instead of
 * when an answer arrives. Nothing before it touches fetch's globals (the SDKs' Headers are loom's:
 * sdk-fetch-globals.ts).
 */
export function warmUpFetch(): void {
	if (warmedUp) return;
	warmedUp = true;
	setImmediate(async () => {
		try {
			const body = new Response("{}").body;
			if (!body) return;
			for await (const _chunk of body) {
				// drain
			}
		} catch {
			// Only a head start: an answer that needs fetch sets it up itself, and says what fails there.
		}
	});
}

/** The answer's bytes as a web stream, decoded as fetch decodes them; the socket pauses while the reader is behind. */
function bodyStream(answer: http.IncomingMessage, signal: AbortSignal | undefined, done: () => void): ReadableStream<Uint8Array> {
	const source = decoded(answer);
	let finished = false;
	return new ReadableStream<Uint8Array>(
		{
			start(controller) {
				const fail = (error: unknown) => {
					if (finished) return;
					finished = true;
					done();
					controller.error(signal?.aborted ? signal.reason : new TypeError("terminated", { cause: error }));
				};
				source.on("data", (chunk: Buffer) => {
					if (finished) return;
					controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
					if ((controller.desiredSize ?? 0) <= 0) source.pause();
				});
				source.once("end", () => {
					if (finished) return;
					finished = true;
					done();
					controller.close();
				});
				source.once("error", fail);
				// A connection closed before the end, or destroyed by the abort.
				answer.once("close", () => {
					if (!answer.complete) fail(new Error("other side closed"));
				});
			},
			pull() {
				source.resume();
			},
			cancel() {
				finished = true;
				done();
				answer.destroy();
			},
		},
		{ highWaterMark: 1 },
	);
}

/** The body through the decoder its content-encoding names (gzip, deflate, br), as fetch undoes them. */
function decoded(answer: http.IncomingMessage): NodeJS.ReadableStream & { pause(): unknown; resume(): unknown } {
	const encoding = String(answer.headers["content-encoding"] ?? "").trim().toLowerCase();
	const decoder =
		encoding === "gzip" || encoding === "x-gzip"
			? zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH })
			: encoding === "deflate"
				? zlib.createInflate({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH })
				: encoding === "br"
					? zlib.createBrotliDecompress()
					: undefined;
	if (!decoder) return answer;
	answer.on("error", (error) => decoder.destroy(error));
	return answer.pipe(decoder);
}

function headerRecord(given: FetchInit["headers"]): Record<string, string> {
	const out: Record<string, string> = {};
	if (!given) return out;
	const add = (name: string, value: string) => {
		const key = name.toLowerCase();
		out[key] = key in out ? `${out[key]}, ${value}` : value;
	};
	if (typeof (given as Headers).forEach === "function" && !Array.isArray(given)) (given as Headers).forEach((value, name) => add(name, value));
	else if (Array.isArray(given)) for (const [name, value] of given as [string, string][]) add(name, value);
	else for (const [name, value] of Object.entries(given as Record<string, string>)) if (value !== undefined) add(name, String(value));
	return out;
}

function headerPairs(raw: string[]): [string, string][] {
	const pairs: [string, string][] = [];
	for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!]);
	return pairs;
}
