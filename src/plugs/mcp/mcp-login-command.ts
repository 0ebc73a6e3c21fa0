// `loom mcp login <server>`: signs in to an HTTP MCP server that asks for OAuth, through the MCP SDK's client
// auth (discovery of the authorization server, dynamic client registration, authorization code with PKCE), the
// browser coming back to a callback on 127.0.0.1. `loom mcp logout <server>` forgets the server's login.
import { errorMessage, listenForCode, SIGN_IN_TIMEOUT_MS, projectTrust, randomState, stripControls, updateAuthFile } from "../../core/index.js";
import { loadMcpConfig } from "./config-sources.js";
import type { HttpServerSpec } from "./mcp-config.js";
import { McpOAuthProvider } from "./oauth-provider.js";

export interface McpLoginOptions {
	verb?: string;
	server?: string;
	home: string;
	cwd: string;
	configs?: readonly string[];
	/** --trust: the project's .mcp.json counts even if the directory was never trusted. */
	trust?: boolean;
	io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; env: NodeJS.ProcessEnv };
	signal?: AbortSignal;
}

const CALLBACK_PATH = "/callback";

/** Returns the exit code; a problem the user can fix is reported on stderr (exit 1), a wrong verb exit 2. */
export async function runMcpLogin(options: McpLoginOptions): Promise<number> {
	const say = (text: string, stream = options.io.stderr) => stream.write(`${stripControls(text)}\n`);
	if (options.verb !== "login" && options.verb !== "logout") {
		say(`loom mcp takes login <server> or logout <server>, not "${options.verb ?? ""}".`);
		return 2;
	}
	try {
		const server = findServer(options);
		if (options.verb === "logout") {
			const removed = updateAuthFile(options.home, (file) => {
				const had = file.mcp[server.url] !== undefined;
				delete file.mcp[server.url];
				return had;
			});
			say(removed ? `Signed out of MCP server ${server.name}.` : `No login for MCP server ${server.name}.`, options.io.stdout);
			return 0;
		}
		await signInToServer({ name: server.name, url: server.url, home: options.home, env: options.io.env, say, signal: options.signal });
		say(`Signed in to MCP server ${server.name}; every loom here uses the login from now on (in a running one: /mcp restart ${server.name}).`, options.io.stdout);
		return 0;
	} catch (error) {
		say(errorMessage(error));
		return 1;
	}
}

function findServer(options: McpLoginOptions): { name: string; url: string } {
	const projectTrusted = options.trust === true || projectTrust(options.home, options.cwd) === true;
	const config = loadMcpConfig({ cwd: options.cwd, home: options.home, configs: options.configs, projectTrusted, env: options.io.env });
	const names = config.servers.map((server) => server.name);
	const found = config.servers.find((server) => server.name === options.server);
	if (!found) throw new Error(`No MCP server is named ${options.server}; ${names.length > 0 ? `configured: ${names.join(", ")}` : "none is configured (.mcp.json, $LOOM_HOME/mcp.json, --mcp-config)"}.`);
	if (!found.spec) throw new Error(`MCP server ${found.name} cannot be used: ${found.problem ?? "it is disabled"}.`);
	if (found.spec.transport === "stdio") throw new Error(`MCP server ${found.name} runs as a local command; only HTTP servers sign in with OAuth.`);
	return { name: found.name, url: (found.spec as HttpServerSpec).url };
}

export interface ServerSignIn {
	name: string;
	url: string;
	home: string;
	env: NodeJS.ProcessEnv;
	/** Tells the user what to open, and how it goes. */
	say(text: string): void;
	signal?: AbortSignal;
	/** How long the browser may take to come back (SIGN_IN_TIMEOUT_MS). */
	timeoutMs?: number;
}

/** Signs in to one HTTP server (`loom mcp login`, `/mcp login`); its tokens end up in auth.json. */
export async function signInToServer({ name, url, home, env, say, signal, timeoutMs = SIGN_IN_TIMEOUT_MS }: ServerSignIn): Promise<void> {
	const { auth } = await import("@modelcontextprotocol/sdk/client/auth.js");
	// The old tokens stay in auth.json (the sign-in's provider does not offer them) until the new ones replace them.
	const timeout = AbortSignal.timeout(timeoutMs);
	const stop = signal ? AbortSignal.any([signal, timeout]) : timeout;
	const callbackPort = Number(env.LOOM_MCP_CALLBACK_PORT ?? 0);
	const state = randomState();
	const callback = await listenForCode({ port: Number.isInteger(callbackPort) ? callbackPort : 0, path: CALLBACK_PATH, state, signal: stop });
	try {
		const provider = new McpOAuthProvider(home, name, url, {
			redirectUrl: `http://127.0.0.1:${callback.port}${CALLBACK_PATH}`,
			state,
			open: (authorization) => say(`Open this page in a browser on this machine to sign in to MCP server ${name}:\n  ${authorization.toString()}`),
		});
		const first = await auth(provider, { serverUrl: url });
		if (first === "AUTHORIZED") return;
		say("Waiting for the browser to come back…");
		const code = await callback.code.catch((error: Error) => {
			if (timeout.aborted) throw new Error(`Signing in to MCP server ${name} failed: the browser did not come back (sign-in not finished within ${Math.round(timeoutMs / 60_000)} minutes).`);
			throw new Error(`Signing in to MCP server ${name} failed: ${error.message}`);
		});
		const second = await auth(provider, { serverUrl: url, authorizationCode: code });
		if (second !== "AUTHORIZED") throw new Error(`MCP server ${name} did not accept the sign-in.`);
	} finally {
		callback.close();
	}
}
