// Which values are secrets, kept out of what tools return and show: the configured API keys, the values of
// environment variables whose names look like secrets (*_KEY, *_TOKEN, *_SECRET, *PASSWORD*), and credentials
// written in an MCP server's configuration. How they are masked
// is core/text/secret-mask.ts's, the same for every path.
import type { AgentToolResult, AfterToolCallResult } from "../../core/index.js";
import { maskValues, type SecretMask } from "../../core/index.js";

export { MASK, type SecretMask } from "../../core/index.js";

const SECRET_NAME = /(_KEY|_TOKEN|_SECRET)$|PASSWORD/i;
/** Shorter values are not masked: "true", "1" or a local server's "none" would mangle ordinary output. */
const MIN_SECRET_LENGTH = 8;

/** Names of configured values that hold credentials: an MCP server's `API_KEY` or `GITHUB_TOKEN`, `Authorization`, `X-Api-Key`, `--token`. */
const CREDENTIAL_NAME = /(^|[-_])(api[-_]?key|apikey|key|token|secret|auth|authorization|cookie|credentials?|pat|password|passwd)$|PASSWORD|TOKEN|SECRET/i;

/**
 * The secrets of `env` (by name), the configured keys (an explicit key, models.json, the providers' variables)
 * and of `configured` [name, value] pairs (an MCP server's env, headers, options) those named like credentials:
 * the value, and its last word (`Bearer <token>`).
 */
export function secretMask(env: NodeJS.ProcessEnv, configuredKeys: readonly (string | undefined)[], configured: readonly [string, string][] = []): SecretMask {
	const fromEnv = Object.entries(env)
		.filter(([name]) => SECRET_NAME.test(name))
		.map(([, value]) => value);
	const fromConfig = configured.filter(([name]) => CREDENTIAL_NAME.test(name)).flatMap(([, value]) => [value, value.trim().split(/\s+/).at(-1)]);
	return maskValues([...configuredKeys, ...fromEnv, ...fromConfig], MIN_SECRET_LENGTH);
}

/** Every API key the session could use: the explicit one, and each provider's (models.json, its variable). */
export function configuredKeys(registry: { providers(): string[]; apiKeyFor(provider: string): string | undefined }, explicit?: string): string[] {
	const keys = registry.providers().map((provider) => registry.apiKeyFor(provider));
	return [explicit, ...keys].filter((key): key is string => key !== undefined);
}

/** The result with secrets masked in its text and in every string of its details; undefined when it holds none. */
export function maskResult(result: AgentToolResult<unknown>, secrets: SecretMask): AfterToolCallResult | undefined {
	if (secrets.values.length === 0) return undefined;
	let changed = false;
	const content = result.content.map((part) => {
		if (part.type !== "text") return part;
		const text = secrets.mask(part.text);
		if (text === part.text) return part;
		changed = true;
		return { ...part, text };
	});
	const details = maskStrings(result.details, secrets, 0);
	if (details !== result.details) changed = true;
	return changed ? { content, details } : undefined;
}

/** Masks strings inside plain data (a tool's details), keeping unchanged parts as they are. */
function maskStrings(value: unknown, secrets: SecretMask, depth: number): unknown {
	if (typeof value === "string") return secrets.mask(value);
	if (depth > 8 || value === null || typeof value !== "object") return value;
	if (Array.isArray(value)) {
		const items = value.map((item) => maskStrings(item, secrets, depth + 1));
		return items.some((item, index) => item !== value[index]) ? items : value;
	}
	if (Object.getPrototypeOf(value) !== Object.prototype) return value;
	const entries = Object.entries(value).map(([key, item]) => [key, maskStrings(item, secrets, depth + 1)] as const);
	return entries.some(([key, item]) => item !== (value as Record<string, unknown>)[key]) ? Object.fromEntries(entries) : value;
}
