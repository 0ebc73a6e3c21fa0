// OAuth for remote MCP servers, against a server built with the MCP SDK's server auth: without a login loom says
// to run `loom mcp login`; that command discovers the authorization server, registers itself and signs in with
// PKCE (the test plays the browser); then the server's tools work, an expired token is renewed mid-run by the
// refresh token, and no token shows in output or in the session file. The sign-in, browser and all, runs the built
// loom; the runs around it go in-process through the CLI's I/O seam.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authFilePath, readAuthFile } from "../../../src/core/ai/index.js";
import type { CommandSession } from "../../../src/core/session/index.js";
import { createAgentSession, SessionManager } from "../../../src/sdk/index.js";
import { runLoomInProcess } from "../../support/loom-in-process.js";
import { serverFlags, sessionFiles, startLoom, useScriptedServer } from "../../support/loom-process.js";
import { startMcpOAuthServer, type McpOAuthServer } from "../../support/mcp-oauth-server.js";
import { playBrowser } from "../../support/plan-servers.js";
import { workspace, type Workspace } from "../../support/temp-dir.js";
import { waitFor } from "../../support/wait-for.js";

const model = useScriptedServer();
let secure: McpOAuthServer;

beforeAll(async () => {
	secure = await startMcpOAuthServer();
});
afterAll(() => secure?.close());

function configured(): Workspace {
	const ws = workspace();
	mkdirSync(ws.home, { recursive: true });
	writeFileSync(join(ws.home, "mcp.json"), JSON.stringify({ mcpServers: { secure: { type: "http", url: secure.mcpUrl } } }));
	return ws;
}

async function mcpLogin(ws: Workspace): Promise<string> {
	const run = startLoom(["mcp", "login", "secure"], ws);
	const stderr = await waitFor(() => run.stderr(), (text) => /http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+/.test(text), { what: "the authorization URL" });
	const back = await playBrowser(/(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/.exec(stderr)![1]!);
	expect(back.status).toBe(200);
	const result = await run.done;
	expect(result.code, result.stderr).toBe(0);
	expect(result.stdout).toMatch(/^Signed in to MCP server secure/);
	return result.stdout + result.stderr;
}

/** Model options of a session on the scripted server. */
function scriptedModel() {
	return { provider: "openai", model: "scripted", baseUrl: model.openaiBaseUrl, apiKey: "test-key" };
}

/** A print run whose model calls the server's whoami tool, then answers. */
async function callWhoami(ws: Workspace) {
	model.enqueue({ toolCalls: [{ name: "mcp__secure__whoami", arguments: {} }] }, { text: "done" });
	const result = await runLoomInProcess(["-p", ...serverFlags(model.openaiBaseUrl), "who am i"], ws);
	const toolResult = model.requests.at(-1)?.body.messages?.find((message: { role: string }) => message.role === "tool");
	return { result, toolResult: toolResult?.content as string | undefined };
}

describe("MCP servers behind OAuth", () => {
	it("says to run loom mcp login for a server that asks for a sign-in, then reaches it after one, renewing an expired token by itself", async () => {
		const ws = configured();
		model.enqueue({ text: "no tools" });
		const before = await runLoomInProcess(["-p", ...serverFlags(model.openaiBaseUrl), "hi"], ws);
		expect(before.stderr).toMatch(/MCP server secure asks you to sign in \(OAuth\): run loom mcp login secure/);
		expect(secure.registrations).toBe(0);

		const loginOutput = await mcpLogin(ws);
		expect(secure.registrations).toBe(1);
		expect(secure.grants.at(-1)).toBe("authorization_code");
		expect(statSync(authFilePath(ws.home)).mode & 0o777).toBe(0o600);
		const stored = readAuthFile(ws.home).mcp[secure.mcpUrl]!;
		expect(stored.tokens?.access_token).toMatch(/^mcp-at-/);

		const first = await callWhoami(ws);
		// (Under load a "Waiting for MCP servers to start" notice may come first; nothing else.)
		expect(first.result.code, first.result.stderr).toBe(0);
		expect(first.result.stderr).not.toMatch(/fail|sign in|error/i);
		expect(first.toolResult).toBe("hello from behind OAuth");
		expect(secure.accepted.at(-1)).toBe(stored.tokens!.access_token);

		// The token expires: the next run's first request gets a 401, the SDK renews it with the refresh token.
		secure.expireAccessTokens();
		const renewed = await callWhoami(ws);
		expect(renewed.result.code, renewed.result.stderr).toBe(0);
		expect(renewed.result.stderr).not.toMatch(/fail|sign in|error/i);
		expect(renewed.toolResult).toBe("hello from behind OAuth");
		expect(secure.grants.at(-1)).toBe("refresh_token");
		const now = readAuthFile(ws.home).mcp[secure.mcpUrl]!.tokens!.access_token;
		expect(now).not.toBe(stored.tokens!.access_token);
		expect(secure.accepted.at(-1)).toBe(now);

		const texts = [loginOutput, first.result.stdout, first.result.stderr, renewed.result.stdout, renewed.result.stderr, ...sessionFiles(ws.home).map((file) => readFileSync(file, "utf8"))];
		for (const token of secure.issued) for (const text of texts) expect(text.includes(token), "an MCP token was printed or stored in a session").toBe(false);

		// A refresh token the server no longer takes: the run says to sign in again.
		secure.expireAccessTokens();
		secure.revokeRefreshTokens();
		model.enqueue({ text: "no tools" });
		const revoked = await runLoomInProcess(["-p", ...serverFlags(model.openaiBaseUrl), "hi"], ws);
		expect(revoked.stderr).toMatch(/run loom mcp login secure/);

		const out = await runLoomInProcess(["mcp", "logout", "secure"], ws);
		expect(out.stdout).toBe("Signed out of MCP server secure.\n");
		expect(existsSync(authFilePath(ws.home))).toBe(false);
	});

	it("signs in from a running session with /mcp login, and the server starts with its tools", async () => {
		const ws = configured();
		const { session } = await createAgentSession({ cwd: ws.cwd, loomHome: ws.home, ...scriptedModel(), sessionManager: SessionManager.inMemory() });
		try {
			const notices: string[] = [];
			const ctx = { session: session as CommandSession, notify: (_level: string, text: string) => void notices.push(text), busy: false };
			const mcp = session.commands.get("mcp")!;
			const listing = async () => {
				const before = notices.length;
				await mcp.handler("", ctx);
				return notices.slice(before).join("\n");
			};
			await waitFor(listing, (text) => /secure · failed: .*loom mcp login secure/.test(text), { what: "the server to ask for a sign-in" });
			const signingIn = mcp.handler("login secure", ctx);
			const shown = await waitFor(() => notices.join("\n"), (text) => /\/authorize\?\S+/.test(text), { what: "the authorization URL" });
			await playBrowser(/(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/.exec(shown)![1]!);
			await signingIn;
			expect(await listing()).toMatch(/secure · ready · http[^]*1 tool \(mcp__secure__\*\): whoami/);
		} finally {
			await session.dispose();
		}
	});

	it("refuses to sign in to a server nobody configured, or one that runs as a local command", async () => {
		const ws = configured();
		writeFileSync(join(ws.home, "mcp.json"), JSON.stringify({ mcpServers: { secure: { type: "http", url: secure.mcpUrl }, local: { command: "true" } } }));
		const unknown = await runLoomInProcess(["mcp", "login", "nope"], ws);
		expect(unknown.code).toBe(1);
		expect(unknown.stderr).toMatch(/No MCP server is named nope; configured: secure, local/);
		const local = await runLoomInProcess(["mcp", "login", "local"], ws);
		expect(local.stderr).toMatch(/runs as a local command; only HTTP servers sign in with OAuth/);
	});
});
