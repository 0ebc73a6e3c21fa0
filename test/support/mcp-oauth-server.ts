// An HTTP MCP server behind OAuth, built with the MCP SDK's server auth support: mcpAuthRouter (metadata,
// dynamic client registration, authorize, token with PKCE, refresh), requireBearerAuth on /mcp (401 with the
// protected resource's metadata), and one tool, `whoami`. The authorization server approves at once (a test plays
// the browser); the test can expire the access tokens or revoke the refresh tokens to see loom cope.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import { InvalidGrantError, InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { OAuthServerProvider, AuthorizationParams } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

// express comes with the SDK, without type declarations; what this file uses of it, typed here.
type Handler = (req: any, res: any, next: () => void) => unknown;
interface ExpressApp {
	(req: IncomingMessage, res: ServerResponse): void;
	use(handler: unknown): void;
	post(path: string, ...handlers: Handler[]): void;
	get(path: string, ...handlers: Handler[]): void;
}
const express = createRequire(import.meta.url)("express") as { (): ExpressApp; json(): Handler };

export interface McpOAuthServer {
	/** The MCP endpoint (http://127.0.0.1:PORT/mcp). */
	mcpUrl: string;
	/** Grant types the token endpoint served, in order. */
	grants: string[];
	/** Clients registered dynamically. */
	registrations: number;
	/** Bearer tokens /mcp accepted, in order. */
	accepted: string[];
	/** Every access and refresh token issued (none may show in loom's output or sessions). */
	issued: string[];
	/** From now on every access token issued so far is expired. */
	expireAccessTokens(): void;
	/** From now on no refresh token issued so far is taken. */
	revokeRefreshTokens(): void;
	close(): Promise<void>;
}

export async function startMcpOAuthServer(): Promise<McpOAuthServer> {
	const clients = new Map<string, OAuthClientInformationFull>();
	const codes = new Map<string, { clientId: string; params: AuthorizationParams }>();
	const access = new Map<string, { clientId: string; expiresAt: number }>();
	const refresh = new Map<string, string>();
	const grants: string[] = [];
	const accepted: string[] = [];
	const issued: string[] = [];
	let registrations = 0;

	const clientsStore: OAuthRegisteredClientsStore = {
		getClient: (id) => clients.get(id),
		registerClient(client) {
			registrations += 1;
			const full = client as OAuthClientInformationFull;
			clients.set(full.client_id, full);
			return full;
		},
	};
	const issue = (clientId: string): OAuthTokens => {
		const token = `mcp-at-${randomUUID()}`;
		const refreshToken = `mcp-rt-${randomUUID()}`;
		access.set(token, { clientId, expiresAt: Date.now() + 3_600_000 });
		refresh.set(refreshToken, clientId);
		issued.push(token, refreshToken);
		return { access_token: token, token_type: "bearer", expires_in: 3600, refresh_token: refreshToken };
	};
	const provider: OAuthServerProvider = {
		clientsStore,
		async authorize(client, params, res) {
			const code = randomUUID();
			codes.set(code, { clientId: client.client_id, params });
			const target = new URL(params.redirectUri);
			target.searchParams.set("code", code);
			if (params.state !== undefined) target.searchParams.set("state", params.state);
			res.redirect(target.toString());
		},
		async challengeForAuthorizationCode(_client, code) {
			const entry = codes.get(code);
			if (!entry) throw new InvalidGrantError("unknown code");
			return entry.params.codeChallenge;
		},
		async exchangeAuthorizationCode(client, code) {
			grants.push("authorization_code");
			const entry = codes.get(code);
			if (!entry || entry.clientId !== client.client_id) throw new InvalidGrantError("unknown code");
			codes.delete(code);
			return issue(client.client_id);
		},
		async exchangeRefreshToken(client, refreshToken) {
			grants.push("refresh_token");
			if (refresh.get(refreshToken) !== client.client_id) throw new InvalidGrantError("refresh token not valid");
			refresh.delete(refreshToken);
			return issue(client.client_id);
		},
		async verifyAccessToken(token) {
			const entry = access.get(token);
			if (!entry || entry.expiresAt < Date.now()) throw new InvalidTokenError("token expired or unknown");
			return { token, clientId: entry.clientId, scopes: [], expiresAt: Math.floor(entry.expiresAt / 1000) };
		},
	};

	const app = express();
	const server = createServer(app);
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	const mcpUrl = `${base}/mcp`;
	app.use(mcpAuthRouter({ provider, issuerUrl: new URL(base), resourceServerUrl: new URL(mcpUrl), resourceName: "test server" }));
	const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(mcpUrl)) }) as unknown as Handler;
	app.post("/mcp", express.json(), bearer, async (req: IncomingMessage & { body: unknown }, res: ServerResponse) => {
		accepted.push(String(req.headers.authorization).replace(/^Bearer /, ""));
		const mcp = new McpServer({ name: "secure", version: "1.0.0" });
		mcp.registerTool("whoami", { description: "Says who is signed in" }, async () => ({ content: [{ type: "text", text: "hello from behind OAuth" }] }));
		const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
		res.on("close", () => void transport.close());
		await mcp.connect(transport);
		await transport.handleRequest(req, res, req.body);
	});
	app.get("/mcp", bearer, (_req, res: ServerResponse) => void res.writeHead(405).end());

	return {
		mcpUrl,
		grants,
		get registrations() {
			return registrations;
		},
		accepted,
		issued,
		expireAccessTokens() {
			for (const entry of access.values()) entry.expiresAt = 0;
		},
		revokeRefreshTokens() {
			refresh.clear();
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
