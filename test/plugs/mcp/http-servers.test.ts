// Real servers over HTTP: server-everything serving streamable HTTP (and the older SSE transport) on 127.0.0.1,
// through loom's MCP client; a server that cannot be reached, refuses, or goes away.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type HttpServer, startEverythingHttp } from "../../support/mcp-servers.js";
import { waitFor } from "../../support/wait-for.js";
import { resultText, sharedServers, startServers } from "./harness.js";

const running: HttpServer[] = [];
afterEach(async () => {
	await Promise.all(running.splice(0).map((server) => server.stop()));
});

async function everything(transport: "streamableHttp" | "sse", port?: number): Promise<HttpServer> {
	const server = await startEverythingHttp(transport, port);
	running.push(server);
	return server;
}

describe("server-everything over streamable HTTP", () => {
	// The two cases that leave the server serving share it.
	let shared: HttpServer | undefined;
	beforeAll(async () => {
		shared = await startEverythingHttp("streamableHttp");
	});
	afterAll(() => shared?.stop());
	const web = sharedServers(() => ({ web: { type: "http", url: shared!.url } }));

	it("serves its tools: text, images and progress", async () => {
		const mcp = web();
		expect(mcp.notices).toEqual([]);
		expect(resultText(await mcp.call("mcp__web__echo", { message: "over http" }))).toBe("Echo: over http");
		const image = await mcp.call("mcp__web__get-tiny-image");
		expect(image.content[1]).toMatchObject({ type: "image", mimeType: "image/png" });
		const updates: string[] = [];
		await mcp.call("mcp__web__trigger-long-running-operation", { duration: 0.6, steps: 3 }, { updates });
		expect(updates.slice(0, 2)).toEqual(["progress 1/3", "progress 2/3"]);
	});

	it("an aborted call ends at once, and the server keeps serving", async () => {
		const mcp = web();
		const abort = new AbortController();
		const updates: string[] = [];
		const call = mcp.call("mcp__web__trigger-long-running-operation", { duration: 30, steps: 100 }, { signal: abort.signal, updates });
		await waitFor(() => updates.length > 0, Boolean, { what: "the first progress" });
		abort.abort();
		await expect(call).rejects.toThrow("The call was cancelled; MCP server web was told so.");
		expect(resultText(await mcp.call("mcp__web__echo", { message: "still here" }))).toBe("Echo: still here");
	});

	it("a server that goes away fails the call, and the next call connects again once it is back", async () => {
		const first = await everything("streamableHttp");
		const mcp = startServers({ web: { type: "http", url: first.url } });
		await mcp.ready();
		await first.stop();
		await expect(mcp.call("mcp__web__echo", { message: "anyone?" })).rejects.toThrow(
			/^MCP server web could not be reached: .*ECONNREFUSED.*\. It is connected again on the next call\.$/,
		);
		expect(mcp.notices.at(-1)!.text).toMatch(/^MCP server web stopped: the connection failed: /);
		await everything("streamableHttp", first.port);
		expect(resultText(await mcp.call("mcp__web__echo", { message: "back" }))).toBe("Echo: back");
		expect(mcp.servers.connections[0]!.restarts).toBe(1);
	});
});

describe("server-everything over SSE", () => {
	it("serves its tools", async () => {
		const server = await everything("sse");
		const mcp = startServers({ legacy: { type: "sse", url: server.url } });
		await mcp.ready();
		expect(mcp.notices).toEqual([]);
		expect(resultText(await mcp.call("mcp__legacy__get-sum", { a: 1, b: 2 }))).toBe("The sum of 1 and 2 is 3.");
	});
});

describe("a remote server that cannot be used", () => {
	it("one that cannot be reached is reported with the network's reason", async () => {
		const closed = createServer();
		await new Promise<void>((listening) => closed.listen(0, "127.0.0.1", listening));
		const { port } = closed.address() as AddressInfo;
		await new Promise((done) => closed.close(done));
		const mcp = startServers({ gone: { type: "http", url: `http://127.0.0.1:${port}/mcp` } });
		await mcp.ready();
		expect(mcp.notices).toEqual([{ level: "error", text: expect.stringMatching(/^MCP server gone failed to start: .*ECONNREFUSED/) }]);
	});

	it("gets the configured headers, with variables expanded, and a refusal is reported with its status", async () => {
		const seen: IncomingHttpHeaders[] = [];
		const refusing = createServer((request, response) => {
			seen.push(request.headers);
			response.writeHead(503, { "content-type": "text/plain" }).end("down for maintenance");
		});
		await new Promise<void>((listening) => refusing.listen(0, "127.0.0.1", listening));
		try {
			const { port } = refusing.address() as AddressInfo;
			process.env.LOOM_TEST_MCP_TOKEN = "s3cret";
			const mcp = startServers({ api: { type: "http", url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: "Bearer ${LOOM_TEST_MCP_TOKEN}" } } });
			await mcp.ready();
			expect(seen[0]!.authorization).toBe("Bearer s3cret");
			expect(mcp.notices).toEqual([{ level: "error", text: expect.stringMatching(/^MCP server api failed to start: .*down for maintenance \(HTTP 503\)$/) }]);
		} finally {
			delete process.env.LOOM_TEST_MCP_TOKEN;
			await new Promise((done) => refusing.close(done));
		}
	});
});
