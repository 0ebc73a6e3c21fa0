// One web_fetch download: http(s) only, a few redirects followed, a size cap read as a stream (a huge body costs
// nothing past the cap), a timeout over the whole fetch, the proxy from HTTP(S)_PROXY / NO_PROXY (Node's own
// fetch does not read them). Each hop's host is checked by resolvePublicHost and the socket goes to that address.
import { request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction, Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { resolvePublicHost, WebAddressError, type WebSettings } from "./web-address.js";

export const MAX_REDIRECTS = 5;
export const MAX_PAGE_BYTES = 5 * 1024 * 1024;
export const DEFAULT_FETCH_TIMEOUT_MS = 30_000;

export interface FetchedPage {
	/** Where the body came from, after redirects. */
	url: string;
	status: number;
	contentType: string;
	body: Buffer;
	/** The body went on past maxBytes: only its start is here. */
	cut: boolean;
}

export interface FetchOptions {
	settings: WebSettings;
	signal?: AbortSignal;
	maxBytes?: number;
	env?: NodeJS.ProcessEnv;
	/**
	 * Why a host may not be fetched (the sandbox's network allowlist), or undefined where it may; asked of the first
	 * address and of every redirect.
	 */
	refuseHost?: (host: string) => string | undefined;
}

const USER_AGENT = "loom-web-fetch/1";

/** Throws an Error saying what went wrong (refused address, too many redirects, timeout, HTTP failure). */
export async function fetchPage(address: string, options: FetchOptions): Promise<FetchedPage> {
	const timeoutMs = options.settings.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
	const timeout = AbortSignal.timeout(timeoutMs);
	const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
	let url = parseHttpUrl(address);
	const seen: string[] = [];
	try {
		for (let hop = 0; ; hop++) {
			const refused = options.refuseHost?.(url.hostname);
			if (refused) throw new Error(refused);
			const response = await get(url, options, signal);
			const location = response.headers.location;
			if (response.statusCode !== undefined && response.statusCode >= 300 && response.statusCode < 400 && location) {
				response.resume();
				response.destroy();
				seen.push(url.href);
				if (hop >= MAX_REDIRECTS) throw new Error(`Too many redirects (over ${MAX_REDIRECTS}): ${seen.join(" → ")}.`);
				url = parseHttpUrl(new URL(location, url).href);
				continue;
			}
			return await readBody(url, response, options.maxBytes ?? MAX_PAGE_BYTES, signal);
		}
	} catch (error) {
		if (timeout.aborted && !options.signal?.aborted) throw new Error(`Timed out after ${timeoutMs / 1000} s fetching ${url.href}.`);
		if (options.signal?.aborted) throw new Error("Fetch aborted.");
		throw error;
	}
}

function parseHttpUrl(address: string): URL {
	let url: URL;
	try {
		url = new URL(address);
	} catch {
		throw new Error(`Not a URL: ${address}. Give a full http:// or https:// address.`);
	}
	if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`Only http and https URLs are fetched, not ${url.protocol}.`);
	if (url.username || url.password) throw new Error("URLs with a user name or password are not fetched.");
	return url;
}

/** The proxy for `url` from the environment, or undefined (none set, or NO_PROXY names the host). */
export function proxyFor(url: URL, env: NodeJS.ProcessEnv): URL | undefined {
	const value = url.protocol === "https:" ? (env.HTTPS_PROXY ?? env.https_proxy) : (env.HTTP_PROXY ?? env.http_proxy);
	if (!value) return undefined;
	const noProxy = (env.NO_PROXY ?? env.no_proxy ?? "").split(",").map((entry) => entry.trim().toLowerCase()).filter(Boolean);
	const host = url.hostname.toLowerCase();
	if (noProxy.some((entry) => entry === "*" || host === entry.replace(/^\./, "") || host.endsWith(entry.startsWith(".") ? entry : `.${entry}`))) return undefined;
	try {
		return new URL(value.includes("://") ? value : `http://${value}`);
	} catch {
		return undefined;
	}
}

async function get(url: URL, options: FetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
	const host = url.hostname;
	// Checked even through a proxy; a name only the proxy can resolve is left to it.
	const proxy = proxyFor(url, options.env ?? process.env);
	let pinned: LookupFunction | undefined;
	try {
		const target = await resolvePublicHost(host, options.settings);
		pinned = (_name, lookupOptions, callback) => {
			if ((lookupOptions as { all?: boolean }).all) (callback as any)(null, [target]);
			else callback(null, target.address, target.family);
		};
	} catch (error) {
		if (!(proxy && error instanceof WebAddressError && error.message.startsWith("Could not resolve"))) throw error;
	}
	const headers = { "user-agent": USER_AGENT, accept: "text/html,application/xhtml+xml,application/json,text/plain;q=0.9,*/*;q=0.5", "accept-encoding": "identity" };
	const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
	const base: RequestOptions = { method: "GET", headers, signal, agent: false };
	if (!proxy) {
		const send = url.protocol === "https:" ? httpsRequest : httpRequest;
		return response(send({ ...base, host, port, path: url.pathname + url.search, lookup: pinned, ...(url.protocol === "https:" ? { servername: host } : {}) } as RequestOptions));
	}
	if (url.protocol === "http:") {
		return response(httpRequest({ ...base, host: proxy.hostname, port: Number(proxy.port) || 80, path: url.href, headers: { ...headers, host: url.host, ...proxyAuth(proxy) } }));
	}
	const tunnel = await connectThrough(proxy, `${host}:${port}`, signal);
	const secure = tlsConnect({ socket: tunnel, servername: host });
	return response(httpsRequest({ ...base, host, port, path: url.pathname + url.search, createConnection: () => secure } as RequestOptions));
}

function proxyAuth(proxy: URL): Record<string, string> {
	if (!proxy.username) return {};
	const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
	return { "proxy-authorization": `Basic ${Buffer.from(credentials).toString("base64")}` };
}

/** A socket to `target` through the proxy's CONNECT. */
function connectThrough(proxy: URL, target: string, signal: AbortSignal): Promise<Socket> {
	return new Promise((resolvePromise, reject) => {
		const ask = httpRequest({ host: proxy.hostname, port: Number(proxy.port) || 80, method: "CONNECT", path: target, headers: { host: target, ...proxyAuth(proxy) }, signal, agent: false });
		ask.once("connect", (answer, socket) => {
			if (answer.statusCode === 200) resolvePromise(socket);
			else {
				socket.destroy();
				reject(new Error(`The proxy ${proxy.host} refused the connection to ${target} (HTTP ${answer.statusCode}).`));
			}
		});
		ask.once("error", reject);
		ask.end();
	});
}

function response(request: ReturnType<typeof httpRequest>): Promise<IncomingMessage> {
	return new Promise((resolvePromise, reject) => {
		request.once("response", resolvePromise);
		request.once("error", reject);
		request.end();
	});
}

/** The body up to maxBytes, read as it arrives; the rest is never read. */
async function readBody(url: URL, message: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<FetchedPage> {
	const status = message.statusCode ?? 0;
	const contentType = String(message.headers["content-type"] ?? "");
	const chunks: Buffer[] = [];
	let size = 0;
	let cut = false;
	try {
		for await (const chunk of message as AsyncIterable<Buffer>) {
			signal.throwIfAborted();
			const room = maxBytes - size;
			if (chunk.length > room) {
				chunks.push(chunk.subarray(0, room));
				size = maxBytes;
				cut = true;
				break;
			}
			chunks.push(chunk);
			size += chunk.length;
		}
	} finally {
		message.destroy();
	}
	return { url: url.href, status, contentType, body: Buffer.concat(chunks, size), cut };
}
