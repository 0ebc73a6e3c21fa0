// The end of a browser sign-in: a one-shot server on 127.0.0.1 that takes the authorization code the browser is
// sent back with, checking the state the sign-in began with. Used by the plans' and the MCP servers' logins.
import { createServer } from "node:http";

export interface CallbackOptions {
	/** 0: any free port. */
	port: number;
	/** The callback's path, e.g. "/auth/callback". */
	path: string;
	/** The state parameter the authorization request carried; a callback with another one is refused. */
	state?: string;
	signal?: AbortSignal;
	/** What to do instead when the port is taken, appended to that error. */
	busyHint?: string;
}

export interface Callback {
	/** The port listened on (the one asked for, or the one given for 0). */
	port: number;
	/** The authorization code; rejects when the server refused (error=…) or the sign-in is cancelled. */
	code: Promise<string>;
	close(): void;
}

export function listenForCode(options: CallbackOptions): Promise<Callback> {
	let settle!: { resolve(code: string): void; reject(error: Error): void };
	const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
	// Whoever awaits the code handles its rejection; this keeps an early one from counting as unhandled.
	code.catch(() => {});
	const server = createServer((request, response) => {
		const url = new URL(request.url ?? "/", "http://127.0.0.1");
		if (url.pathname !== options.path) {
			response.writeHead(404).end();
			return;
		}
		const error = url.searchParams.get("error");
		const received = url.searchParams.get("code");
		if ((options.state !== undefined && url.searchParams.get("state") !== options.state) || (!received && !error)) {
			response.writeHead(400, { "Content-Type": "text/plain; charset=utf-8" }).end("This sign-in link does not belong to the loom that is waiting.");
			return;
		}
		response.writeHead(error ? 400 : 200, { "Content-Type": "text/plain; charset=utf-8" });
		response.end(error ? "Sign-in failed; see the terminal." : "Signed in to loom. You can close this tab.");
		if (error) settle.reject(new Error(`the sign-in was refused: ${error.slice(0, 100)}.`));
		else settle.resolve(received!);
	});
	const onAbort = () => settle.reject(new Error("Sign-in cancelled."));
	options.signal?.addEventListener("abort", onAbort, { once: true });
	const close = () => {
		options.signal?.removeEventListener("abort", onAbort);
		server.close();
		server.closeAllConnections();
	};
	return new Promise((resolve, reject) => {
		server.once("error", (error: NodeJS.ErrnoException) => {
			close();
			const hint = options.busyHint ? `; ${options.busyHint}` : "";
			reject(
				new Error(
					error.code === "EADDRINUSE"
						? `Port ${options.port} on 127.0.0.1 is in use (another sign-in?)${hint}.`
						: `Cannot listen on 127.0.0.1:${options.port}: ${error.message}`,
				),
			);
		});
		server.listen(options.port, "127.0.0.1", () => {
			const address = server.address();
			resolve({ port: typeof address === "object" && address ? address.port : options.port, code, close });
		});
	});
}
