// ChatGPT plans, signed in to as OpenAI's Codex client does: OAuth authorization code with PKCE, the browser sent
// back to a callback on 127.0.0.1 (port 1455, the one the client is registered with); or, on a host without a
// browser, OpenAI's device code (a code typed at auth.openai.com/codex/device, which yields an authorization
// code to exchange). The access token is a JWT naming the ChatGPT account that requests must name in a header.
// LOOM_CHATGPT_AUTH_URL and LOOM_CHATGPT_CALLBACK_PORT point the flow elsewhere (a test's server; 0: any port).
import type { PlanLogin } from "./auth-file.js";
import type { LoginIo, LoginMethod, PlanLoginFlow } from "./login-types.js";
import { listenForCode } from "./oauth-callback.js";
import { createPkce, field, jwtClaims, LoginHttpError, numberField, pause, randomState, requestJson, SIGN_IN_TIMEOUT_MS } from "./oauth-http.js";

/** The public client of OpenAI's Codex CLI (PKCE, no secret). */
const CLIENT_ID = "app_EMoamEEZ73f0CkXaXp7hrann";
const SCOPE = "openid profile email offline_access";
const DEFAULT_CALLBACK_PORT = 1455;
const CALLBACK_PATH = "/auth/callback";
/** The claim of OpenAI's tokens that holds the ChatGPT account. */
const AUTH_CLAIM = "https://api.openai.com/auth";

function issuer(env: NodeJS.ProcessEnv): string {
	return (env.LOOM_CHATGPT_AUTH_URL || "https://auth.openai.com").replace(/\/+$/, "");
}

async function login(method: LoginMethod, io: LoginIo): Promise<PlanLogin> {
	return method === "device" ? deviceLogin(io) : browserLogin(io);
}

async function browserLogin(io: LoginIo): Promise<PlanLogin> {
	const env = io.env ?? process.env;
	const pkce = createPkce();
	const state = randomState();
	const rawPort = env.LOOM_CHATGPT_CALLBACK_PORT;
	const port = rawPort !== undefined && /^\d+$/.test(rawPort) ? Number(rawPort) : DEFAULT_CALLBACK_PORT;
	const callback = await listenForCode({ port, path: CALLBACK_PATH, state, signal: io.signal, busyHint: "use loom login chatgpt --device" });
	try {
		const redirectUri = `http://localhost:${callback.port}${CALLBACK_PATH}`;
		const url = new URL(`${issuer(env)}/oauth/authorize`);
		const params = {
			response_type: "code",
			client_id: CLIENT_ID,
			redirect_uri: redirectUri,
			scope: SCOPE,
			code_challenge: pkce.challenge,
			code_challenge_method: "S256",
			state,
			id_token_add_organizations: "true",
			codex_cli_simplified_flow: "true",
			originator: "loom",
		};
		for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
		io.show({ url: url.toString() });
		io.progress?.("Waiting for the browser to come back…");
		const code = await callback.code.catch((error: Error) => {
			throw new Error(`ChatGPT sign-in failed: ${error.message}`);
		});
		return await exchangeCode(env, code, pkce.verifier, redirectUri);
	} finally {
		callback.close();
	}
}

async function deviceLogin(io: LoginIo): Promise<PlanLogin> {
	const env = io.env ?? process.env;
	const base = issuer(env);
	const step = "ChatGPT device sign-in";
	const start = await requestJson(`${base}/api/accounts/deviceauth/usercode`, step, { json: { client_id: CLIENT_ID }, signal: io.signal });
	const deviceAuthId = field(start, "device_auth_id", step);
	const userCode = typeof start.user_code === "string" ? start.user_code : field(start, "usercode", step);
	io.show({ url: `${base}/codex/device`, code: userCode });
	io.progress?.("Waiting for the code to be entered…");
	const intervalMs = Math.max(numberField(start, "interval", 5), 0.05) * 1000;
	const deadline = Date.now() + SIGN_IN_TIMEOUT_MS;
	while (Date.now() < deadline) {
		await pause(intervalMs, io.signal);
		let answer: Record<string, unknown>;
		try {
			answer = await requestJson(`${base}/api/accounts/deviceauth/token`, step, { json: { device_auth_id: deviceAuthId, user_code: userCode }, signal: io.signal });
		} catch (error) {
			// Not approved yet.
			if (error instanceof LoginHttpError && (error.status === 403 || error.status === 404)) continue;
			throw error;
		}
		const code = field(answer, "authorization_code", step);
		const verifier = field(answer, "code_verifier", step);
		return exchangeCode(env, code, verifier, `${base}/deviceauth/callback`);
	}
	throw new Error("ChatGPT sign-in failed: the code expired before it was entered; run loom login chatgpt --device again.");
}

async function exchangeCode(env: NodeJS.ProcessEnv, code: string, verifier: string, redirectUri: string): Promise<PlanLogin> {
	const answer = await requestJson(`${issuer(env)}/oauth/token`, "ChatGPT token exchange", {
		form: { grant_type: "authorization_code", client_id: CLIENT_ID, code, code_verifier: verifier, redirect_uri: redirectUri },
	});
	return tokens(answer, undefined);
}

async function refresh(stored: PlanLogin, env: NodeJS.ProcessEnv): Promise<PlanLogin> {
	const answer = await requestJson(`${issuer(env)}/oauth/token`, "ChatGPT token refresh", {
		form: { grant_type: "refresh_token", client_id: CLIENT_ID, refresh_token: stored.refresh },
	});
	return tokens(answer, stored);
}

function tokens(answer: Record<string, unknown>, previous: PlanLogin | undefined): PlanLogin {
	const step = "ChatGPT sign-in";
	const access = field(answer, "access_token", step);
	// A refresh may keep the refresh token (no new one in the answer).
	const refreshToken = typeof answer.refresh_token === "string" && answer.refresh_token !== "" ? answer.refresh_token : previous?.refresh;
	if (!refreshToken) throw new Error(`${step}: the answer has no "refresh_token".`);
	const accountId = accountOf(access) ?? (typeof answer.id_token === "string" ? accountOf(answer.id_token) : undefined) ?? previous?.accountId;
	if (!accountId) throw new Error(`${step}: the token names no ChatGPT account (is this account on a ChatGPT plan?).`);
	return { access, refresh: refreshToken, expires: Date.now() + numberField(answer, "expires_in", 3600) * 1000, accountId };
}

function accountOf(token: string): string | undefined {
	const auth = jwtClaims(token)[AUTH_CLAIM] as Record<string, unknown> | undefined;
	return typeof auth?.chatgpt_account_id === "string" && auth.chatgpt_account_id !== "" ? auth.chatgpt_account_id : undefined;
}

export const chatgptLogin: PlanLoginFlow = { provider: "chatgpt", login, refresh };
