#!/usr/bin/env node
// A scripted LLM server for tests and benchmarks: speaks Anthropic Messages, OpenAI Chat Completions, OpenAI
// Responses and Gemini streamGenerateContent as SSE on 127.0.0.1, answers each request with the next scripted
// turn, and records every request.
// Plain ESM JavaScript so it runs inside vitest and standalone under Node 20 alike.
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";
import { renderAnthropic, renderAnthropicError } from "./scripted-model-anthropic.mjs";
import { googleEvent, renderGoogle, renderGoogleError } from "./scripted-model-google.mjs";
import { renderOpenAI, renderOpenAIError } from "./scripted-model-openai.mjs";
import { renderResponses, renderResponsesError } from "./scripted-model-responses.mjs";

/** Each wire format: its error body, its stream, and how a raw scripted event object is written. */
const FORMATS = {
	anthropic: { error: renderAnthropicError, render: renderAnthropic, rawObject: namedEvent },
	openai: { error: renderOpenAIError, render: renderOpenAI, rawObject: dataEvent },
	"openai-responses": { error: renderResponsesError, render: renderResponses, rawObject: namedEvent },
	google: { error: renderGoogleError, render: renderGoogle, rawObject: (event) => googleEvent(event) },
};

/** The wire format a request path asks for. */
function formatOf(path) {
	if (path.endsWith("/chat/completions")) return "openai";
	if (path.endsWith("/messages")) return "anthropic";
	if (path.endsWith("/responses")) return "openai-responses";
	if (/\/models\/[^/]+:streamGenerateContent$/.test(path)) return "google";
	return undefined;
}

/** @typedef {import("./scripted-model-server.d.mts").ScriptedTurn} ScriptedTurn */
/** @typedef {import("./scripted-model-server.d.mts").RecordedRequest} RecordedRequest */

const DEFAULT_TURN = Object.freeze({ text: "ok" });
const SECRET_HEADERS = new Set(["authorization", "x-api-key", "api-key", "x-goog-api-key", "proxy-authorization"]);

/**
 * Starts a server. Options: `port` (0 = any), `host` (default 127.0.0.1), `turns` (initial queue),
 * `respond(body, index, request)` (dynamic turns), `defaultTurn` (when nothing else answers).
 * @param {import("./scripted-model-server.d.mts").ScriptedServerOptions} [options]
 * @returns {Promise<import("./scripted-model-server.d.mts").ScriptedModelServer>}
 */
export async function startScriptedModelServer(options = {}) {
	/** @type {ScriptedTurn[]} */
	const queue = [...(options.turns ?? [])];
	/** @type {RecordedRequest[]} */
	const requests = [];
	let responder = options.respond;
	let defaultTurn = options.defaultTurn ?? DEFAULT_TURN;
	const sockets = new Set();

	const server = createServer((req, res) => {
		handle(req, res).catch((error) => {
			if (!res.headersSent) sendJson(res, 500, { error: { message: String(error?.message ?? error) } });
			else res.destroy();
		});
	});
	server.on("connection", (socket) => {
		sockets.add(socket);
		socket.on("close", () => sockets.delete(socket));
	});

	async function handle(req, res) {
		const path = (req.url ?? "/").split("?")[0];
		const raw = await readBody(req);
		if (path.startsWith("/__")) return handleAdmin(req, res, path, raw);

		const format = formatOf(path);
		if (req.method !== "POST" || !format) {
			return sendJson(res, 404, { error: { message: `scripted model server: no route for ${req.method} ${path}` } });
		}
		let body;
		try {
			body = JSON.parse(raw);
		} catch {
			return sendJson(res, 400, { error: { message: "scripted model server: request body is not JSON" } });
		}
		const index = requests.length;
		/** @type {RecordedRequest} */
		const record = { index, method: req.method, path, url: req.url ?? path, format, headers: redactHeaders(req.headers), body, receivedAt: Date.now() };
		requests.push(record);

		const turn = (await responder?.(body, index, record)) ?? queue.shift() ?? defaultTurn;
		await serveTurn(req, res, turn, turn.speak ?? format, body);
	}

	async function handleAdmin(req, res, path, raw) {
		if (path === "/__health") return sendJson(res, 200, { ok: true });
		if (path === "/__requests" && req.method === "GET") return sendJson(res, 200, requests);
		if (path === "/__script" && req.method === "GET") return sendJson(res, 200, queue);
		if (path === "/__script" && req.method === "POST") {
			let parsed;
			try {
				parsed = JSON.parse(raw || "[]");
			} catch {
				return sendJson(res, 400, { error: { message: "POST /__script expects a JSON array of turns" } });
			}
			const turns = Array.isArray(parsed) ? parsed : parsed?.turns;
			if (!Array.isArray(turns)) return sendJson(res, 400, { error: { message: "POST /__script expects a JSON array of turns" } });
			if (!Array.isArray(parsed) && parsed.replace) queue.length = 0;
			if (!Array.isArray(parsed) && parsed.defaultTurn) defaultTurn = parsed.defaultTurn;
			queue.push(...turns);
			return sendJson(res, 200, { queued: queue.length });
		}
		if (path === "/__reset" && req.method === "POST") {
			queue.length = 0;
			requests.length = 0;
			defaultTurn = options.defaultTurn ?? DEFAULT_TURN;
			return sendJson(res, 200, { ok: true });
		}
		return sendJson(res, 404, { error: { message: `scripted model server: no admin route ${req.method} ${path}` } });
	}

	await new Promise((resolve, reject) => {
		server.once("error", reject);
		server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
			server.off("error", reject);
			resolve(undefined);
		});
	});
	const address = server.address();
	const port = typeof address === "object" && address ? address.port : 0;
	const url = `http://${options.host ?? "127.0.0.1"}:${port}`;

	return {
		url,
		port,
		anthropicBaseUrl: url,
		openaiBaseUrl: `${url}/v1`,
		googleBaseUrl: `${url}/v1beta`,
		requests,
		enqueue(...turns) {
			queue.push(...turns.flat());
		},
		pending() {
			return queue.length;
		},
		setResponder(fn) {
			responder = fn;
		},
		setDefaultTurn(turn) {
			defaultTurn = turn ?? DEFAULT_TURN;
		},
		reset() {
			queue.length = 0;
			requests.length = 0;
			responder = options.respond;
			defaultTurn = options.defaultTurn ?? DEFAULT_TURN;
		},
		async waitForRequests(count, timeoutMs = 5000) {
			const deadline = Date.now() + timeoutMs;
			while (requests.length < count) {
				if (Date.now() > deadline) throw new Error(`expected ${count} requests, got ${requests.length}`);
				await sleep(10);
			}
			return requests.slice(0, count);
		},
		close() {
			return new Promise((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve(undefined));
			});
		},
	};
}

/** Writes one scripted turn as an HTTP response in the request's wire format. */
async function serveTurn(req, res, turn, format, body) {
	let closed = false;
	res.on("close", () => (closed = true));
	if (turn.hangMs) await sleep(turn.hangMs, () => closed);
	if (closed) return;

	if (turn.rawBody !== undefined) {
		res.writeHead(turn.status ?? 200, { "content-type": turn.contentType ?? "application/json", ...turn.headers });
		res.end(typeof turn.rawBody === "string" ? turn.rawBody : JSON.stringify(turn.rawBody));
		return;
	}

	const status = turn.status ?? (turn.contextOverflow ? 400 : undefined);
	if (status && status >= 400) {
		const headers = { "content-type": "application/json", ...turn.headers };
		if (turn.retryAfter !== undefined) {
			headers["retry-after"] = String(turn.retryAfter);
			headers["retry-after-ms"] = String(Math.round(turn.retryAfter * 1000));
		}
		const payload = turn.errorBody !== undefined ? turn.errorBody : FORMATS[format].error({ ...turn, status });
		res.writeHead(status, headers);
		res.end(typeof payload === "string" ? payload : JSON.stringify(payload));
		return;
	}

	res.writeHead(200, {
		"content-type": "text/event-stream",
		"cache-control": "no-cache",
		connection: "keep-alive",
		...turn.headers,
	});
	res.flushHeaders();

	const events = turn.rawEvents ? turn.rawEvents.map((event) => rawEvent(event, format)) : FORMATS[format].render(turn, body);
	const delay = turn.tokensPerSecond ? 1000 / turn.tokensPerSecond : (turn.chunkDelayMs ?? 0);
	const malformedAt = turn.malformed ? (turn.cutAfterChunks ?? 2) : -1;
	let written = 0;
	for (const event of events) {
		if (closed) return;
		if (written === malformedAt) {
			const data = typeof turn.malformed === "string" ? turn.malformed : '{"type": "content_block_delta", "index": 0, "delta": {';
			await write(res, `${format === "anthropic" ? "event: content_block_delta\n" : ""}data: ${data}\n\n`);
			res.end();
			return;
		}
		if (written === turn.cutAfterChunks) {
			// Let the written bytes leave before the socket dies, so the client sees a mid-stream drop.
			await sleep(20);
			res.socket?.destroy();
			return;
		}
		await write(res, event);
		written++;
		if (written === 1 && turn.longLine) {
			await writeLongLine(res, turn.longLine, () => closed);
			if (!closed) res.end();
			return;
		}
		if (written === 1 && turn.pings) {
			// Keep-alives only (Anthropic ping events, SSE comments for OpenAI): bytes flow, no content does.
			const ping = format === "anthropic" ? 'event: ping\ndata: {"type": "ping"}\n\n' : ": keep-alive\n\n";
			for (let i = 0; i < turn.pings && !closed; i++) {
				await sleep(turn.pingIntervalMs ?? 100, () => closed);
				if (!closed) await write(res, ping);
			}
		}
		if (delay > 0) await sleep(delay, () => closed);
	}
	if (!closed) res.end();
}

/** A scripted raw event: a string is written as is, an object as one JSON data event in the format's way. */
function rawEvent(event, format) {
	return typeof event === "string" ? event : FORMATS[format].rawObject(event);
}

/** One data event (Chat Completions). */
function dataEvent(event) {
	return `data: ${JSON.stringify(event)}\n\n`;
}

/** One data event named by its type (Anthropic, Responses). */
function namedEvent(event) {
	const name = typeof event?.type === "string" ? `event: ${event.type}\n` : "";
	return `${name}data: ${JSON.stringify(event)}\n\n`;
}

/** One `data:` line of `bytes` bytes that never ends: no line break follows. */
async function writeLongLine(res, bytes, stopped) {
	const piece = Buffer.alloc(64 * 1024, "a");
	await write(res, 'data: {"padding":"');
	for (let left = bytes; left > 0 && !stopped(); left -= piece.length) {
		await write(res, left >= piece.length ? piece : piece.subarray(0, left));
	}
}

function write(res, chunk) {
	return new Promise((resolve) => {
		if (!res.write(chunk)) res.once("drain", () => resolve(undefined));
		else resolve(undefined);
	});
}

function sendJson(res, status, value) {
	res.writeHead(status, { "content-type": "application/json" });
	res.end(JSON.stringify(value));
}

function readBody(req) {
	return new Promise((resolve, reject) => {
		const chunks = [];
		req.on("data", (chunk) => chunks.push(chunk));
		req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
		req.on("error", reject);
	});
}

function redactHeaders(headers) {
	const out = {};
	for (const [name, value] of Object.entries(headers)) {
		out[name] = SECRET_HEADERS.has(name) ? "[redacted]" : value;
	}
	return out;
}

/** Sleeps `ms`, waking early (checked every 20 ms) when `stop()` turns true. */
function sleep(ms, stop) {
	return new Promise((resolve) => {
		const end = Date.now() + ms;
		const tick = () => {
			const left = end - Date.now();
			if (left <= 0 || stop?.()) return resolve(undefined);
			setTimeout(tick, stop ? Math.min(left, 20) : left);
		};
		tick();
	});
}

// ---- standalone: node test/support/scripted-model-server.mjs --port 0 [--script file.json] ----

function parseArgs(argv) {
	const args = { port: 0, host: "127.0.0.1" };
	for (let i = 0; i < argv.length; i++) {
		const flag = argv[i];
		const value = argv[i + 1];
		if (flag === "--port") args.port = Number(value);
		else if (flag === "--host") args.host = value;
		else if (flag === "--script") args.script = value;
		else if (flag === "--responder") args.responder = value;
		else if (flag === "--help" || flag === "-h") args.help = true;
		else throw new Error(`unknown argument: ${flag}`);
		if (flag !== "--help" && flag !== "-h") i++;
	}
	return args;
}

async function main() {
	const args = parseArgs(process.argv.slice(2));
	if (args.help) {
		process.stdout.write(
			"usage: node test/support/scripted-model-server.mjs [--port N] [--host H] [--script turns.json] [--responder module.mjs]\n" +
				"  --script: a JSON array of turns, or { turns, defaultTurn }\n" +
				"  --responder: a module whose default export is respond(body, index, request) => turn | undefined\n" +
				"  admin: POST /__script (array of turns), GET /__requests, POST /__reset\n",
		);
		return;
	}
	let turns = [];
	let defaultTurn;
	if (args.script) {
		const parsed = JSON.parse(await readFile(args.script, "utf8"));
		turns = Array.isArray(parsed) ? parsed : (parsed.turns ?? []);
		defaultTurn = Array.isArray(parsed) ? undefined : parsed.defaultTurn;
	}
	const respond = args.responder ? (await import(pathToFileURL(args.responder).href)).default : undefined;
	const server = await startScriptedModelServer({ port: args.port, host: args.host, turns, defaultTurn, respond });
	process.stdout.write(`listening on ${server.url}\n`);
	const stop = () => server.close().then(() => process.exit(0));
	process.on("SIGTERM", stop);
	process.on("SIGINT", stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
	main().catch((error) => {
		process.stderr.write(`scripted model server: ${error?.message ?? error}\n`);
		process.exit(1);
	});
}
