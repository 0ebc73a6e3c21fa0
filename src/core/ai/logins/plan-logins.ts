// The plans `loom login` offers, the ones it refuses and why, and the life of a stored login: signing in,
// renewing the token before it expires (so a request never goes out with a dead one), signing out. The flows
// themselves are loaded only when they run.
import { BUILTIN_PROVIDERS } from "../models-catalog.js";
import { rmSync } from "node:fs";
import { authFilePath, readAuthFile, updateAuthFile, type PlanLogin } from "./auth-file.js";
import type { LoginIo, LoginMethod, PlanLoginFlow } from "./login-types.js";
import { LoginHttpError } from "./oauth-http.js";

/** A token is renewed when it has less than this left, so one request never outlives it. */
export const REFRESH_MARGIN_MS = 5 * 60_000;

export interface LoginChoice {
	provider: string;
	title: string;
	methods: readonly LoginMethod[];
	/** Why loom does not sign in to it (instead of methods). */
	refused?: string;
}

/** Subscriptions loom will not sign in to, and the reason it gives. */
const REFUSED: Record<string, { title: string; reason: string }> = {
	anthropic: {
		title: "Claude (Pro, Max)",
		reason:
			"Anthropic's terms allow Claude subscriptions only in Anthropic's own apps, not in third-party clients such as loom. Use an API key: set ANTHROPIC_API_KEY (console.anthropic.com).",
	},
	google: {
		title: "Gemini (Google AI plans, Code Assist)",
		reason:
			"Google's terms do not allow Gemini subscriptions or Code Assist sign-ins in third-party clients such as loom. Use an API key: set GEMINI_API_KEY (aistudio.google.com).",
	},
};

/** Every choice of the picker: the plans first, then the refused ones. */
export function loginChoices(): LoginChoice[] {
	const plans = Object.values(BUILTIN_PROVIDERS).flatMap((provider) =>
		provider.login ? [{ provider: provider.name, title: provider.login.title, methods: provider.login.methods }] : [],
	);
	const refused = Object.entries(REFUSED).map(([provider, { title, reason }]) => ({ provider, title, methods: [], refused: reason }));
	return [...plans, ...refused];
}

/** Whether `provider`'s key is a login's token. */
export function isPlanProvider(provider: string): boolean {
	return BUILTIN_PROVIDERS[provider]?.login !== undefined;
}

export function planTitle(provider: string): string {
	return BUILTIN_PROVIDERS[provider]?.login?.title ?? provider;
}

async function flowFor(provider: string): Promise<PlanLoginFlow> {
	if (provider === "chatgpt") return (await import("./chatgpt-login.js")).chatgptLogin;
	if (provider === "github-copilot") return (await import("./github-copilot-login.js")).githubCopilotLogin;
	const refused = REFUSED[provider];
	if (refused) throw new Error(`loom does not sign in to ${refused.title}: ${refused.reason}`);
	const known = loginChoices()
		.filter((choice) => !choice.refused)
		.map((choice) => choice.provider);
	throw new Error(`No login for "${provider}"; loom signs in to ${known.join(" and ")}.`);
}

/** Signs in (the flow talks to the user through `io`) and keeps the login in auth.json. */
export async function signIn(home: string, provider: string, method: LoginMethod | undefined, io: LoginIo): Promise<PlanLogin> {
	const flow = await flowFor(provider);
	const methods = BUILTIN_PROVIDERS[provider]?.login?.methods ?? [];
	const chosen = method ?? methods[0]!;
	if (!methods.includes(chosen)) throw new Error(`${planTitle(provider)} signs in by ${methods.join(" or ")}, not by ${chosen}.`);
	const login = await flow.login(chosen, io);
	updateAuthFile(home, (file) => {
		file.plans[provider] = login;
	});
	return login;
}

/** Removes the login of `provider`, or every login (plans and MCP servers) when none is named; returns what went. */
export function signOut(home: string, provider?: string): string[] {
	if (provider === undefined) {
		try {
			readAuthFile(home);
		} catch {
			// A file loom cannot read holds nothing it could use: signing out of everything removes it.
			rmSync(authFilePath(home), { force: true });
			return [`everything in ${authFilePath(home)}`];
		}
	}
	return updateAuthFile(home, (file) => {
		if (provider === undefined) {
			const removed = [...Object.keys(file.plans), ...Object.keys(file.mcp).map((url) => `MCP ${url}`)];
			file.plans = {};
			file.mcp = {};
			return removed;
		}
		if (!file.plans[provider]) return [];
		delete file.plans[provider];
		return [provider];
	});
}

/** What to do about a login that does not work: always names the command that fixes it. */
export function loginProblem(provider: string, why: string): string {
	return `The ${planTitle(provider)} login ${why}: run loom login ${provider} to sign in again.`;
}

/**
 * The login of `provider` with a token good for a while: renewed (and stored) when it expires within
 * REFRESH_MARGIN_MS. Throws an Error naming `loom login` when there is none, or the server refuses to renew it.
 */
export async function freshPlanLogin(home: string, provider: string, env: NodeJS.ProcessEnv = process.env, now = Date.now()): Promise<PlanLogin> {
	const stored = readAuthFile(home).plans[provider];
	if (!stored) throw new Error(`Not signed in to ${planTitle(provider)}: run loom login ${provider}.`);
	if (stored.expires - now > REFRESH_MARGIN_MS) return stored;
	// One renewal at a time per login in this process: a refresh token is used once, so a second request
	// with the same one would be refused and read as a revoked login. Another process's renewal is caught
	// below, by reading the file again when the server refuses.
	const key = `${home}\0${provider}`;
	let renewal = renewals.get(key);
	if (!renewal) {
		renewal = renew(home, provider, stored, env, now).finally(() => renewals.delete(key));
		renewals.set(key, renewal);
	}
	return renewal;
}

/** The renewals under way, by home and provider. */
const renewals = new Map<string, Promise<PlanLogin>>();

async function renew(home: string, provider: string, stored: PlanLogin, env: NodeJS.ProcessEnv, now: number): Promise<PlanLogin> {
	const flow = await flowFor(provider);
	let renewed: PlanLogin;
	try {
		renewed = await flow.refresh(stored, env);
	} catch (error) {
		// Another loom may have renewed it meanwhile (a refresh token is used once).
		const current = readAuthFile(home).plans[provider];
		if (current && current.access !== stored.access && current.expires - now > REFRESH_MARGIN_MS) return current;
		if (error instanceof LoginHttpError && error.status >= 400 && error.status < 500) {
			throw new Error(loginProblem(provider, `has expired or was revoked (${error.message})`));
		}
		throw new Error(`Cannot renew the ${planTitle(provider)} login: ${(error as Error).message}`);
	}
	updateAuthFile(home, (file) => {
		file.plans[provider] = renewed;
	});
	return renewed;
}
