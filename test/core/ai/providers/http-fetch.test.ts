// The providers' fetch over node:http keeps fetch's meaning: bodies stream as the server sends them and no faster
// than they are read, aborts and failures end as fetch ends them, answers are decoded, connections are reused.
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpFetch } from "../../../../src/core/ai/providers/http-fetch.js";

const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the flood route has written, and whether it waits for the socket to drain. */
const flood = { written: 0, blocked: false };
let connections = 0;
let releaseHeld: (() => void) | undefined;
let holding = false;
let heldClosed = false;
let server: http.Server;
let base: string;

beforeAll(async () => {
	server = http.createServer((request, response) => {
		const route = new URL(request.url!, "http://x").pathname;
		if (route === "/echo") {
			let body = "";
			request.on("data", (chunk) => (body += chunk));
			request.on("end", () => response.end(JSON.stringify({ method: request.method, body, type: request.headers["content-type"] })));
		} else if (route === "/pieces") {
			response.write("first|");
			releaseHeld = () => response.end("second");
		} else if (route === "/flood") {
			// 64 MB in 64 KB pieces, each written only once the last one drained.
			const piece = Buffer.alloc(64 * 1024, 120);
			flood.written = 0;
			const writeOn = () => {
				while (flood.written < 64 * MB) {
					flood.written += piece.length;
					if (!response.write(piece)) {
						flood.blocked = true;
						response.once("drain", () => {
							flood.blocked = false;
							writeOn();
						});
						return;
					}
				}
				response.end();
			};
			writeOn();
		} else if (route === "/hold") {
			holding = true;
			heldClosed = false;
			request.socket.once("close", () => (heldClosed = true));
		} else if (route === "/cut") {
			response.writeHead(200, { "content-length": "100" });
			response.write("only part");
			setImmediate(() => response.socket?.destroy());
		} else if (route === "/gzip") {
			response.writeHead(200, { "content-encoding": "gzip" });
			response.end(zlib.gzipSync("unpacked text"));
		} else if (route === "/empty") {
			response.writeHead(204).end();
		} else if (route === "/one-per-connection") {
			// A server that closed a kept-alive connection just as the next request came on it: no answer at all.
			const socket = request.socket as typeof request.socket & { served?: boolean };
			if (socket.served) socket.destroy();
			else {
				socket.served = true;
				response.end("answered");
			}
		} else if (route === "/moved") {
			response.writeHead(302, { location: "/echo" }).end();
		} else response.writeHead(404).end("no such route");
	});
	server.on("connection", () => connections++);
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the providers' fetch", () => {
	it("sends the method, headers and body, and reuses the connection for the next request", async () => {
		const before = connections;
		for (const body of ["one", new TextEncoder().encode("two")]) {
			const response = await httpFetch(`${base}/echo`, { method: "POST", headers: { "content-type": "text/plain" }, body });
			expect(response.status).toBe(200);
			expect(await response.json()).toEqual({ method: "POST", body: typeof body === "string" ? body : "two", type: "text/plain" });
		}
		expect(connections - before).toBe(1);
	});

	it("sends a request again on a fresh connection when the kept-alive one was closed as it went out", async () => {
		// Each request after the first finds its kept-alive connection closed under it.
		for (let i = 0; i < 3; i++) expect(await (await httpFetch(`${base}/one-per-connection`, { method: "POST", body: "x" })).text()).toBe("answered");
	});

	it("delivers what the server has sent before the answer ends", async () => {
		const response = await httpFetch(`${base}/pieces`);
		const reader = response.body!.getReader();
		expect(new TextDecoder().decode((await reader.read()).value)).toBe("first|");
		releaseHeld!();
		let rest = "";
		for (let part = await reader.read(); !part.done; part = await reader.read()) rest += new TextDecoder().decode(part.value);
		expect(rest).toBe("second");
	});

	it("stops reading the socket while its reader is behind, and delivers every byte once it reads on", async () => {
		const response = await httpFetch(`${base}/flood`);
		const reader = response.body!.getReader();
		let received = (await reader.read()).value!.length;
		await expect.poll(() => flood.blocked, { timeout: 60_000 }).toBe(true);
		const written = flood.written;
		await sleep(300);
		// Bounded by the kernel's socket buffers and one piece in the stream, not the 64 MB the server would send.
		expect(flood.written).toBe(written);
		expect(written).toBeLessThan(32 * MB);
		for (let part = await reader.read(); !part.done; part = await reader.read()) received += part.value.length;
		expect(received).toBe(64 * MB);
	}, 120_000);

	it("rejects with the signal's reason when aborted before the answer, and closes the connection", async () => {
		const abort = new AbortController();
		const pending = httpFetch(`${base}/hold`, { signal: abort.signal });
		await expect.poll(() => holding, { timeout: 30_000 }).toBe(true);
		abort.abort(new Error("stopped by the user"));
		await expect(pending).rejects.toThrow("stopped by the user");
		await expect.poll(() => heldClosed, { timeout: 30_000 }).toBe(true);
		await expect(httpFetch(`${base}/echo`, { signal: abort.signal })).rejects.toThrow("stopped by the user");
	});

	it("errors the body with the signal's reason when aborted while the reader is behind", async () => {
		const abort = new AbortController();
		const response = await httpFetch(`${base}/flood`, { signal: abort.signal });
		const reader = response.body!.getReader();
		await reader.read();
		await expect.poll(() => flood.blocked, { timeout: 60_000 }).toBe(true);
		abort.abort(new Error("stopped mid-answer"));
		const readAll = async () => {
			for (let part = await reader.read(); !part.done; part = await reader.read()) {}
		};
		await expect(readAll()).rejects.toThrow("stopped mid-answer");
	}, 120_000);

	it("fails as fetch does: 'fetch failed' with the system error before an answer, 'terminated' during one", async () => {
		const closed = http.createServer();
		await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
		const port = (closed.address() as AddressInfo).port;
		await new Promise<void>((resolve) => closed.close(() => resolve()));
		const refused = await httpFetch(`http://127.0.0.1:${port}/`).catch((error: unknown) => error);
		expect(refused).toBeInstanceOf(TypeError);
		expect((refused as Error).message).toBe("fetch failed");
		expect(((refused as Error).cause as NodeJS.ErrnoException).code).toBe("ECONNREFUSED");

		const cut = await httpFetch(`${base}/cut`);
		const error = await cut.text().catch((thrown: unknown) => thrown);
		expect(error).toBeInstanceOf(TypeError);
		expect((error as Error).message).toBe("terminated");
	});

	it("says when the request has been written, before its answer, and never for one that found no server", async () => {
		let sent = 0;
		const answer = httpFetch(`${base}/pieces`, { onSent: () => sent++ });
		await expect.poll(() => sent, { timeout: 15_000 }).toBe(1);
		// The server answers only part until released: the notice came before the answer ended.
		await expect.poll(() => releaseHeld !== undefined, { timeout: 15_000 }).toBe(true);
		releaseHeld!();
		releaseHeld = undefined;
		expect(await (await answer).text()).toBe("first|second");
		expect(sent).toBe(1);

		const closed = http.createServer();
		await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
		const port = (closed.address() as AddressInfo).port;
		await new Promise<void>((resolve) => closed.close(() => resolve()));
		let refusedSent = 0;
		await expect(httpFetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "{}", onSent: () => refusedSent++ })).rejects.toThrow("fetch failed");
		expect(refusedSent).toBe(0);
	});

	it("decodes a gzip answer, gives a 204 no body, and follows a redirect", async () => {
		expect(await (await httpFetch(`${base}/gzip`)).text()).toBe("unpacked text");
		const empty = await httpFetch(`${base}/empty`);
		expect(empty.status).toBe(204);
		expect(empty.body).toBeNull();
		const moved = await httpFetch(`${base}/moved`);
		expect(moved.status).toBe(200);
		expect(await moved.json()).toMatchObject({ method: "GET" });
	});

	it("hands a streamed body to Node's fetch", async () => {
		const body = new ReadableStream({
			start(controller) {
				controller.enqueue(new TextEncoder().encode("streamed"));
				controller.close();
			},
		});
		const response = await httpFetch(`${base}/echo`, { method: "POST", body, duplex: "half" } as RequestInit);
		expect(await response.json()).toMatchObject({ body: "streamed" });
	});
});
