// One local server playing every part of the plans' sign-ins, for the login tests: OpenAI's authorization server
// (authorization code with PKCE, the device code of auth.openai.com, refresh), GitHub's device flow, Copilot's
// token exchange, and the plans' model endpoints, which check the bearer token and pass the request on to a
// scripted model server (Responses for ChatGPT, Chat Completions for Copilot). Tokens are fake and numbered.
import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A model request as the plan's endpoint received it, headers unredacted (the tokens are the test's own). */
export interface PlanRequest {
	path: string;
	headers: Record<string, string | string[] | undefined>;
	body: any;
}

export interface PlanServers {
	url: string;
	/** Environment pointing loom's flows here (LOOM_CHATGPT_AUTH_URL, LOOM_GITHUB_URL, LOOM_GITHUB_API_URL…). */
	env: Record<string, string>;
	/** The ChatGPT account the tokens name. */
	accountId: string;
	modelRequests: PlanRequest[];
	/** Calls per endpoint path ("/oauth/token", "/copilot_internal/v2/token"…). */
	calls: Map<string, number>;
	/** Grant types the token endpoint saw, in order. */
	grants: string[];
	/** Lets a pending device code through (what the user does on the page), by its user code. */
	approve(userCode: string): void;
	/** Tokens the servers no longer take: access tokens at the model endpoints, refresh tokens at the token endpoint. */
	revoke(token: string): void;
	/** Seconds until the tokens issued from now on expire (default 3600). */
	setLifetime(seconds: number): void;
	/** A ChatGPT-style access token (a JWT naming the account), as the token endpoint issues them. */
	accessToken(serial: number): string;
	close(): Promise<void>;
}

const OPENAI_CLIENT = "app_EMoamEEZ73f0CkXaXp7hrann";
const GITHUB_CLIENT = "Iv1.b507a08c87ecfe98";

function jwt(payload: Record<string, unknown>): string {
	const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
	return `${part({ alg: "none", typ: "JWT" })}.${part(payload)}.sig`;
}

async function readBody(request: IncomingMessage): Promise<string> {
	let text = "";
	for await (const chunk of request) text += chunk;
	return text;
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
	response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
}

/** `modelServerUrl`: a scripted model server's url (test/support/scripted-model-server.mjs). */
export async function startPlanServers(modelServerUrl: string): Promise<PlanServers> {
	const accountId = `acct-${randomUUID().slice(0, 8)}`;
	const modelRequests: PlanRequest[] = [];
	const calls = new Map<string, number>();
	const grants: string[] = [];
	const revoked = new Set<string>();
	const liveAccess = new Set<string>();
	const refreshTokens = new Set<string>();
	const codes = new Map<string, { challenge: string; redirectUri: string }>();
	const devices = new Map<string, { userCode: string; approved: boolean; kind: "openai" | "github" }>();
	const githubTokens = new Set<string>();
	let lifetime = 3600;
	let serial = 0;
	let url = "";

	const accessToken = (n: number) => jwt({ "https://api.openai.com/auth": { chatgpt_account_id: accountId }, n });
	const issueOpenAi = () => {
		serial += 1;
		const access = accessToken(serial);
		const refresh = `rt-${serial}-${randomUUID()}`;
		liveAccess.add(access);
		refreshTokens.add(refresh);
		return { access_token: access, refresh_token: refresh, id_token: jwt({ "https://api.openai.com/auth": { chatgpt_account_id: accountId } }), expires_in: lifetime, token_type: "Bearer" };
	};

	const server = createServer((request, response) => {
		handle(request, response).catch((error: Error) => sendJson(response, 500, { error: error.message }));
	});

	async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const here = new URL(request.url ?? "/", url);
		const path = here.pathname;
		calls.set(path, (calls.get(path) ?? 0) + 1);
		const raw = await readBody(request);
		const form = new URLSearchParams(request.headers["content-type"]?.includes("form") ? raw : "");
		const json = request.headers["content-type"]?.includes("json") && raw ? JSON.parse(raw) : {};

		// --- OpenAI's authorization server
		if (path === "/oauth/authorize") {
			const q = here.searchParams;
			if (q.get("client_id") !== OPENAI_CLIENT || q.get("response_type") !== "code" || q.get("code_challenge_method") !== "S256" || !q.get("code_challenge")) {
				return sendJson(response, 400, { error: "invalid_request" });
			}
			const code = `code-${randomUUID()}`;
			codes.set(code, { challenge: q.get("code_challenge")!, redirectUri: q.get("redirect_uri")! });
			const back = new URL(q.get("redirect_uri")!);
			back.searchParams.set("code", code);
			back.searchParams.set("state", q.get("state") ?? "");
			response.writeHead(302, { location: back.toString() }).end();
			return;
		}
		if (path === "/oauth/token") {
			const grant = form.get("grant_type") ?? "";
			grants.push(grant);
			if (form.get("client_id") !== OPENAI_CLIENT) return sendJson(response, 401, { error: "invalid_client" });
			if (grant === "authorization_code") {
				const code = codes.get(form.get("code") ?? "");
				const verifier = form.get("code_verifier") ?? "";
				const challenge = createHash("sha256").update(verifier).digest("base64url");
				if (!code || code.challenge !== challenge || code.redirectUri !== form.get("redirect_uri")) return sendJson(response, 400, { error: "invalid_grant", error_description: "bad code, verifier or redirect_uri" });
				codes.delete(form.get("code")!);
				return sendJson(response, 200, issueOpenAi());
			}
			if (grant === "refresh_token") {
				const token = form.get("refresh_token") ?? "";
				if (!refreshTokens.has(token) || revoked.has(token)) return sendJson(response, 400, { error: "invalid_grant", error_description: "refresh token revoked" });
				refreshTokens.delete(token);
				return sendJson(response, 200, issueOpenAi());
			}
			return sendJson(response, 400, { error: "unsupported_grant_type" });
		}
		if (path === "/api/accounts/deviceauth/usercode") {
			if (json.client_id !== OPENAI_CLIENT) return sendJson(response, 400, { error: "invalid_client" });
			const id = `dev-${randomUUID()}`;
			const userCode = `OA-${serial + devices.size + 1}`;
			devices.set(id, { userCode, approved: false, kind: "openai" });
			return sendJson(response, 200, { device_auth_id: id, user_code: userCode, interval: "0" });
		}
		if (path === "/api/accounts/deviceauth/token") {
			const device = devices.get(json.device_auth_id);
			if (!device || device.userCode !== json.user_code) return sendJson(response, 400, { error: "invalid_request" });
			if (!device.approved) return sendJson(response, 403, { error: { code: "deviceauth_authorization_pending" } });
			devices.delete(json.device_auth_id);
			const verifier = randomUUID() + randomUUID();
			const code = `code-${randomUUID()}`;
			codes.set(code, { challenge: createHash("sha256").update(verifier).digest("base64url"), redirectUri: `${url}/deviceauth/callback` });
			return sendJson(response, 200, { authorization_code: code, code_verifier: verifier, code_challenge: "unused" });
		}

		// --- GitHub's device flow and Copilot's token exchange
		if (path === "/login/device/code") {
			if (form.get("client_id") !== GITHUB_CLIENT) return sendJson(response, 400, { error: "invalid_client" });
			const id = `gh-dev-${randomUUID()}`;
			const userCode = `GH-${devices.size + 1}`;
			devices.set(id, { userCode, approved: false, kind: "github" });
			return sendJson(response, 200, { device_code: id, user_code: userCode, verification_uri: `${url}/login/device`, expires_in: 900, interval: 0.05 });
		}
		if (path === "/login/oauth/access_token") {
			const device = devices.get(form.get("device_code") ?? "");
			if (!device) return sendJson(response, 200, { error: "expired_token" });
			if (!device.approved) return sendJson(response, 200, { error: "authorization_pending" });
			devices.delete(form.get("device_code")!);
			const token = `gho_${randomUUID().replace(/-/g, "")}`;
			githubTokens.add(token);
			return sendJson(response, 200, { access_token: token, token_type: "bearer", scope: "read:user" });
		}
		if (path === "/copilot_internal/v2/token") {
			const token = String(request.headers.authorization ?? "").replace(/^(Bearer|token) /, "");
			if (!githubTokens.has(token) || revoked.has(token)) return sendJson(response, 401, { message: "Bad credentials" });
			if (request.headers["editor-version"] === undefined) return sendJson(response, 400, { message: "editor headers missing" });
			serial += 1;
			const copilot = `tid=${serial};exp=${Math.floor(Date.now() / 1000) + lifetime};proxy-ep=proxy.example.invalid;sig-${randomUUID()}`;
			liveAccess.add(copilot);
			return sendJson(response, 200, { token: copilot, expires_at: Math.floor(Date.now() / 1000) + lifetime, refresh_in: lifetime - 60, endpoints: { api: `${url}/copilot` } });
		}

		// --- the plans' model endpoints
		const target = path === "/backend-api/codex/responses" ? "/v1/responses" : path === "/copilot/chat/completions" ? "/v1/chat/completions" : undefined;
		if (target && request.method === "POST") {
			modelRequests.push({ path, headers: { ...request.headers }, body: JSON.parse(raw) });
			const token = String(request.headers.authorization ?? "").replace(/^Bearer /, "");
			if (!liveAccess.has(token) || revoked.has(token)) return sendJson(response, 401, { error: { message: "Your authentication token has been invalidated.", type: "invalid_request_error", code: "token_revoked" } });
			const upstream = await fetch(`${modelServerUrl}${target}`, { method: "POST", headers: { "content-type": "application/json" }, body: raw });
			response.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "text/event-stream" });
			for await (const chunk of upstream.body as unknown as AsyncIterable<Uint8Array>) response.write(chunk);
			response.end();
			return;
		}
		sendJson(response, 404, { error: `plan servers: no route ${request.method} ${path}` });
	}

	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url,
		env: {
			LOOM_CHATGPT_AUTH_URL: url,
			LOOM_CHATGPT_CALLBACK_PORT: "0",
			LOOM_CHATGPT_BASE_URL: `${url}/backend-api/codex`,
			LOOM_GITHUB_URL: url,
			LOOM_GITHUB_API_URL: url,
		},
		accountId,
		modelRequests,
		calls,
		grants,
		approve(userCode) {
			for (const device of devices.values()) if (device.userCode === userCode) device.approved = true;
		},
		revoke: (token) => void revoked.add(token),
		setLifetime: (seconds) => void (lifetime = seconds),
		accessToken,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/**
 * Plays the browser of a callback sign-in: opens the authorization URL (the server redirects at once, as after a
 * user's approval) and follows the redirect to loom's callback. Returns the callback's status and text.
 */
export async function playBrowser(authorizeUrl: string): Promise<{ status: number; text: string }> {
	const first = await fetch(authorizeUrl, { redirect: "manual" });
	const location = first.headers.get("location");
	if (!location) throw new Error(`the authorization server did not redirect (${first.status}: ${await first.text()})`);
	// localhost is what the redirect URI says; loom listens on 127.0.0.1.
	const back = await fetch(location.replace("//localhost:", "//127.0.0.1:"));
	return { status: back.status, text: await back.text() };
}
