// loom's HTTP proxy for a sandbox with a network allowlist: on 127.0.0.1, it tunnels CONNECT (HTTPS) and
// forwards plain HTTP requests to the allowed hosts only, and answers 403 for every other host (reported).
// Commands reach it through HTTP_PROXY/HTTPS_PROXY; a program that ignores those variables is not stopped by it
// (with an allowlist the network is shared: the README says so).
import { createServer, request, type IncomingMessage } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";

export interface NetworkProxy {
	/** http://127.0.0.1:PORT */
	url: string;
	close(): Promise<void>;
}

/** `host` matches an entry: the same name, or a subdomain of `*.name` (and `name` itself). */
export function hostAllowed(host: string, allow: readonly string[]): boolean {
	const name = host.toLowerCase().replace(/\.$/, "");
	return allow.some((entry) => {
		const pattern = entry.toLowerCase();
		if (pattern.startsWith("*.")) return name === pattern.slice(2) || name.endsWith(pattern.slice(1));
		return name === pattern;
	});
}

/** Host and port of a CONNECT target ("example.com:443", "[::1]:443"). */
function target(authority: string): { host: string; port: number } | undefined {
	const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(authority);
	return match ? { host: match[1], port: Number(match[2]) } : undefined;
}

export function startNetworkProxy(allow: readonly string[], onRefused: (host: string) => void): Promise<NetworkProxy> {
	const sockets = new Set<Socket>();
	const server = createServer((req, res) => {
		let url: URL;
		try {
			url = new URL(req.url ?? "");
		} catch {
			res.writeHead(400).end("loom's proxy takes absolute URLs only\n");
			return;
		}
		if (!hostAllowed(url.hostname, allow)) {
			onRefused(url.hostname);
			res.writeHead(403).end(`blocked by the sandbox: ${url.hostname} is not in sandbox.network.allow\n`);
			return;
		}
		const upstream = request(url, { method: req.method, headers: req.headers }, (answer: IncomingMessage) => {
			res.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(res);
		});
		// Once the answer's head is sent, an upstream failure can only cut the body short.
		upstream.on("error", (error) => (res.headersSent ? res.destroy() : res.writeHead(502).end(`${error.message}\n`)));
		req.pipe(upstream);
	});
	server.on("connection", (socket) => {
		sockets.add(socket);
		socket.once("close", () => sockets.delete(socket));
	});
	server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
		const to = target(req.url ?? "");
		client.on("error", () => {});
		if (!to || !hostAllowed(to.host, allow)) {
			onRefused(to?.host ?? String(req.url));
			client.end(`HTTP/1.1 403 Forbidden\r\n\r\nblocked by the sandbox: ${to?.host ?? req.url} is not in sandbox.network.allow\n`);
			return;
		}
		const upstream = connect(to.port, to.host, () => {
			client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
			if (head.length > 0) upstream.write(head);
			upstream.pipe(client);
			client.pipe(upstream);
		});
		upstream.on("error", () => client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n"));
	});
	return new Promise((resolve, reject) => {
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			server.unref();
			const { port } = server.address() as AddressInfo;
			resolve({
				url: `http://127.0.0.1:${port}`,
				close: () =>
					new Promise<void>((closed) => {
						for (const socket of sockets) socket.destroy();
						server.close(() => closed());
					}),
			});
		});
	});
}
