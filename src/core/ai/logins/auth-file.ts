// auth.json under loom's home: the tokens of `loom login` (plans) and `loom mcp login` (MCP servers). Readable
// by its owner only (0600, the folder 0700 when loom makes it), replaced whole and atomically under a short lock,
// removed when the last login is gone. No OS keyring: see the README's "Logins" section for why.
import { chmodSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { readConfigText, takeShortLock, writeJsonState } from "../../lib/index.js";

/** A plan's login: the token requests carry, what renews it, and when it stops working. */
export interface PlanLogin {
	/** The bearer token of requests (ChatGPT's access token; Copilot's short-lived API token). */
	access: string;
	/** What gets a new `access` (ChatGPT's refresh token; the GitHub token Copilot's token is exchanged for). */
	refresh: string;
	/** When `access` expires, in ms since the epoch. */
	expires: number;
	/** ChatGPT's account id (its requests name it in a header). */
	accountId?: string;
	/** The endpoint this account's requests go to (Copilot's token names it). */
	baseUrl?: string;
}

/** What the MCP SDK's client auth keeps for one server (tokens, the registered client, the PKCE verifier). */
export interface McpServerLogin {
	tokens?: Record<string, unknown>;
	client?: Record<string, unknown>;
	/** Where discovery found the authorization server, so a refresh need not look again. */
	discovery?: Record<string, unknown>;
	/** When `tokens.access_token` expires (ms since the epoch), from its expires_in when stored. */
	expires?: number;
}

export interface AuthFile {
	plans: Record<string, PlanLogin>;
	/** By the server's URL. */
	mcp: Record<string, McpServerLogin>;
}

const AUTH_FILE = "auth.json";
const MAX_AUTH_BYTES = 1024 * 1024;
const LOCK_WAIT_MS = 5_000;

export function authFilePath(home: string): string {
	return join(home, AUTH_FILE);
}

/** The logins kept under `home` (none when there is no file). Throws, naming the file, when it is not loom's JSON. */
export function readAuthFile(home: string): AuthFile {
	const path = authFilePath(home);
	const text = readConfigText(path, MAX_AUTH_BYTES);
	if (text === undefined) return { plans: {}, mcp: {} };
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		throw new Error(`${path} is not valid JSON: remove it (loom logout) and sign in again with loom login.`);
	}
	const record = isObject(value) ? value : {};
	return { plans: objectField(record.plans) as AuthFile["plans"], mcp: objectField(record.mcp) as AuthFile["mcp"] };
}

/**
 * Changes auth.json under its lock: reads it afresh, applies `change`, writes it back (0600), or removes it
 * when nothing is left. Returns what `change` returned.
 */
export function updateAuthFile<T>(home: string, change: (file: AuthFile) => T): T {
	mkdirSync(home, { recursive: true, mode: 0o700 });
	const path = authFilePath(home);
	const release = takeShortLock(`${path}.lock`, LOCK_WAIT_MS);
	if (!release) throw new Error(`${path} is locked by another loom; try again.`);
	try {
		const file = readAuthFile(home);
		const result = change(file);
		if (Object.keys(file.plans).length === 0 && Object.keys(file.mcp).length === 0) rmSync(path, { force: true });
		else {
			writeJsonState(path, file, { mode: 0o600, indent: "\t" });
			// A file written before with wider permissions is replaced by the new one; this covers a umask that
			// keeps even 0600 from being given.
			chmodSync(path, 0o600);
		}
		return result;
	} finally {
		release();
	}
}

/** Every token string kept, for the secret mask: none of them may appear in output or in a session file. */
export function authFileSecrets(file: AuthFile): string[] {
	const secrets: string[] = [];
	for (const login of Object.values(file.plans)) secrets.push(login.access, login.refresh);
	for (const server of Object.values(file.mcp)) {
		for (const key of ["access_token", "refresh_token", "id_token"]) {
			const value = server.tokens?.[key];
			if (typeof value === "string") secrets.push(value);
		}
		const clientSecret = server.client?.client_secret;
		if (typeof clientSecret === "string") secrets.push(clientSecret);
	}
	return secrets.filter((secret) => typeof secret === "string" && secret !== "");
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function objectField(value: unknown): Record<string, unknown> {
	if (!isObject(value)) return {};
	return Object.fromEntries(Object.entries(value).filter(([, entry]) => isObject(entry)));
}
