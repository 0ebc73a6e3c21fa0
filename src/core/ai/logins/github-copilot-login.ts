// GitHub Copilot: GitHub's device flow (a code typed at github.com/login/device) gives a GitHub token, which is
// exchanged for Copilot's short-lived API token (copilot_internal/v2/token); that exchange is also the refresh.
// The token's answer names the endpoint this account's requests go to. LOOM_GITHUB_URL and LOOM_GITHUB_API_URL
// point the flow elsewhere (GitHub Enterprise, or a test's server).
import type { PlanLogin } from "./auth-file.js";
import type { LoginIo, PlanLoginFlow } from "./login-types.js";
import { COPILOT_EDITOR_HEADERS } from "./plan-headers.js";
import { field, LoginHttpError, numberField, pause, requestJson } from "./oauth-http.js";

/** The OAuth app GitHub's Copilot editors sign in as (public: a device flow has no secret). */
const CLIENT_ID = "Iv1.b507a08c87ecfe98";
const DEFAULT_BASE_URL = "https://api.individual.githubcopilot.com";

const EDITOR_HEADERS = COPILOT_EDITOR_HEADERS;

function urls(env: NodeJS.ProcessEnv) {
	const github = (env.LOOM_GITHUB_URL || "https://github.com").replace(/\/+$/, "");
	const api = (env.LOOM_GITHUB_API_URL || "https://api.github.com").replace(/\/+$/, "");
	return {
		deviceCode: `${github}/login/device/code`,
		accessToken: `${github}/login/oauth/access_token`,
		copilotToken: `${api}/copilot_internal/v2/token`,
	};
}

async function login(_method: string, io: LoginIo): Promise<PlanLogin> {
	const env = io.env ?? process.env;
	const endpoints = urls(env);
	const step = "GitHub sign-in";
	const device = await requestJson(endpoints.deviceCode, step, {
		form: { client_id: CLIENT_ID, scope: "read:user" },
		headers: { "User-Agent": EDITOR_HEADERS["User-Agent"]! },
		signal: io.signal,
	});
	const deviceCode = field(device, "device_code", step);
	io.show({ url: field(device, "verification_uri", step), code: field(device, "user_code", step) });
	let intervalMs = numberField(device, "interval", 5) * 1000;
	const deadline = Date.now() + numberField(device, "expires_in", 900) * 1000;
	io.progress?.("Waiting for the code to be entered on GitHub…");
	while (Date.now() < deadline) {
		await pause(intervalMs, io.signal);
		const answer = await requestJson(endpoints.accessToken, step, {
			form: { client_id: CLIENT_ID, device_code: deviceCode, grant_type: "urn:ietf:params:oauth:grant-type:device_code" },
			headers: { "User-Agent": EDITOR_HEADERS["User-Agent"]! },
			signal: io.signal,
		});
		// GitHub answers 200 with an error field while the user has not finished.
		const error = typeof answer.error === "string" ? answer.error : undefined;
		if (error === "authorization_pending") continue;
		if (error === "slow_down") {
			intervalMs = numberField(answer, "interval", intervalMs / 1000 + 5) * 1000;
			continue;
		}
		if (error) throw new Error(`GitHub sign-in failed: ${error === "access_denied" ? "the request was denied" : error === "expired_token" ? "the code expired" : error}.`);
		const githubToken = field(answer, "access_token", step);
		return exchange(githubToken, env);
	}
	throw new Error("GitHub sign-in failed: the code expired before it was entered; run loom login again.");
}

/** Copilot's API token for a GitHub token; throws LoginHttpError (401/403) when GitHub no longer accepts it. */
async function exchange(githubToken: string, env: NodeJS.ProcessEnv): Promise<PlanLogin> {
	const step = "Copilot token exchange";
	const answer = await requestJson(urls(env).copilotToken, step, {
		headers: { Authorization: `Bearer ${githubToken}`, ...EDITOR_HEADERS },
	}).catch((error: unknown) => {
		if (error instanceof LoginHttpError && error.status === 404) {
			throw new Error("This GitHub account has no Copilot plan (the token exchange answered 404).");
		}
		throw error;
	});
	const token = field(answer, "token", step);
	const expiresAt = numberField(answer, "expires_at", 0);
	const endpoints = answer.endpoints as Record<string, unknown> | undefined;
	const api = typeof endpoints?.api === "string" ? endpoints.api : proxyBaseUrl(token);
	return { access: token, refresh: githubToken, expires: expiresAt > 0 ? expiresAt * 1000 : Date.now() + 25 * 60_000, baseUrl: api ?? DEFAULT_BASE_URL };
}

/** The "proxy-ep=proxy.individual.githubcopilot.com" a Copilot token carries, as the API's URL. */
function proxyBaseUrl(token: string): string | undefined {
	const host = /(?:^|;)proxy-ep=([^;]+)/.exec(token)?.[1];
	return host ? `https://${host.replace(/^proxy\./, "api.")}` : undefined;
}

export const githubCopilotLogin: PlanLoginFlow = {
	provider: "github-copilot",
	login,
	refresh: (stored, env) => exchange(stored.refresh, env),
};
