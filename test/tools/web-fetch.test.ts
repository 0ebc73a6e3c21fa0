// web_fetch against a local HTTP server: an article becomes Markdown without its chrome, redirects and the size cap
// and the timeout hold, loopback is refused unless settings allow it, and a long page is read on with start.
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebFetchTool, isPrivateAddress } from "../../src/tools/index.js";
import { callTool } from "./tool-call.js";

const ARTICLE = `<!doctype html><html><head><title>Release notes</title><script>window.tracker = "TRACKER";</script></head>
<body><nav><a href="/">Home</a> <a href="/pricing">NAVLINK pricing</a></nav>
<main><article><h1>Release notes for 2.0</h1>
${Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i + 1} of the release explains what changed in the parser, the scheduler and the cache, and why the defaults moved.</p>`).join("\n")}
<pre><code>npm install thing@2</code></pre><p>See <a href="/docs/upgrade">the upgrade guide</a>.</p></article></main>
<footer>FOOTER copyright</footer></body></html>`;

let server: Server;
let base: string;
let slowResponses: ServerResponse[] = [];
let bigBytesSent = 0;

beforeAll(async () => {
	server = createServer((request, response) => {
		const path = request.url ?? "/";
		if (path === "/article") return void response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(ARTICLE);
		if (path.startsWith("/loop")) return void response.writeHead(302, { location: `/loop${Number(path.slice(5) || 0) + 1}` }).end();
		if (path === "/data.json") return void response.writeHead(200, { "content-type": "application/json" }).end('{"a":[1,2]}');
		if (path === "/paper.pdf") return void response.writeHead(200, { "content-type": "application/pdf" }).end("%PDF-1.7\n");
		if (path === "/long.txt") return void response.writeHead(200, { "content-type": "text/plain" }).end(Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`).join("\n"));
		if (path === "/slow") return void slowResponses.push(response);
		// As a proxy: a plain http request arrives with its absolute address.
		if (path.startsWith("http://")) return void response.writeHead(200, { "content-type": "text/plain" }).end(`proxied ${path}`);
		if (path === "/big") {
			response.writeHead(200, { "content-type": "text/plain" });
			const chunk = Buffer.alloc(64 * 1024, `${"x".repeat(1023)}\n`);
			const write = (): void => {
				while (bigBytesSent < 50 * 1024 * 1024) {
					bigBytesSent += chunk.length;
					if (!response.write(chunk)) return void response.once("drain", write);
				}
				response.end();
			};
			response.on("error", () => {});
			return write();
		}
		response.writeHead(404).end("no such page");
	});
	await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	for (const response of slowResponses) response.destroy();
	server.closeAllConnections();
	await new Promise((done) => server.close(done));
});

const fetchTool = (web: object = { allowPrivate: ["127.0.0.1"] }) => createWebFetchTool("/", { web, env: {} });

describe("web_fetch", () => {
	it("turns an article into Markdown with its body, links made absolute, and no navigation, footer or script", async () => {
		const { text, details } = await callTool(fetchTool(), { url: `${base}/article` });
		expect(text).toContain("# Release notes");
		expect(text).toContain("Paragraph 6 of the release");
		expect(text).toContain("```\nnpm install thing@2\n```");
		expect(text).toContain(`[the upgrade guide](${base}/docs/upgrade)`);
		expect(text).not.toMatch(/NAVLINK|FOOTER|TRACKER/);
		expect(details).toMatchObject({ status: 200, kind: "markdown", startLine: 1, cut: false });
	});

	it("refuses loopback unless settings allow it, and knows private ranges", async () => {
		await expect(callTool(fetchTool({}), { url: `${base}/article` })).rejects.toThrow(/127\.0\.0\.1 is a loopback or private address.*allowPrivate/);
		await expect(callTool(fetchTool({ allowPrivate: ["localhost"] }), { url: `${base}/article` })).rejects.toThrow(/loopback or private/);
		for (const address of ["10.1.2.3", "192.168.0.1", "169.254.169.254", "::1", "::ffff:127.0.0.1", "fd00::1", "100.64.0.1"]) expect(isPrivateAddress(address)).toBe(true);
		for (const address of ["93.184.216.34", "2606:4700::1111"]) expect(isPrivateAddress(address)).toBe(false);
		await expect(callTool(fetchTool(), { url: "file:///etc/passwd" })).rejects.toThrow(/Only http and https/);
	});

	it("stops a redirect loop after 5 redirects", async () => {
		await expect(callTool(fetchTool(), { url: `${base}/loop` })).rejects.toThrow(/Too many redirects \(over 5\)/);
	});

	it("cuts a 50 MB body at the 5 MB cap without downloading the rest", async () => {
		const { text, details } = await callTool(fetchTool(), { url: `${base}/big` });
		expect(details.cut).toBe(true);
		expect(text.endsWith("only its first 5.0 MB were downloaded.]")).toBe(true);
		expect(bigBytesSent).toBeLessThan(20 * 1024 * 1024);
	});

	it("gives up on a slow server after the timeout", async () => {
		await expect(callTool(fetchTool({ allowPrivate: true, timeoutMs: 300 }), { url: `${base}/slow` })).rejects.toThrow(/Timed out after 0.3 s/);
	});

	it("passes JSON through, refuses PDFs, and reads a long page on from start", async () => {
		expect((await callTool(fetchTool(), { url: `${base}/data.json` })).text).toContain('"a": [\n    1,');
		await expect(callTool(fetchTool(), { url: `${base}/paper.pdf` })).rejects.toThrow(/is a PDF; web_fetch does not read PDFs/);
		const tool = fetchTool();
		const first = await callTool(tool, { url: `${base}/long.txt` });
		expect(first.text).toContain("[Showing lines 1-2000 of 3000. Use start=2001 to read on.]");
		const rest = await callTool(tool, { url: `${base}/long.txt`, start: 2001 });
		expect(rest.text).toContain("line 2001\n");
		expect(rest.details).toMatchObject({ startLine: 2001, endLine: 3000 });
		await expect(callTool(fetchTool(), { url: `${base}/missing` })).rejects.toThrow(/HTTP 404/);
	});

	it("goes through HTTP_PROXY, leaving a name only the proxy knows to it, and not for NO_PROXY hosts", async () => {
		const proxied = createWebFetchTool("/", { web: { allowPrivate: ["127.0.0.1"] }, env: { HTTP_PROXY: base, NO_PROXY: "skip.invalid" } });
		expect((await callTool(proxied, { url: "http://docs.invalid/page?x=1" })).text).toContain("proxied http://docs.invalid/page?x=1");
		await expect(callTool(proxied, { url: "http://skip.invalid/" })).rejects.toThrow(/Could not resolve skip.invalid/);
	});
});
