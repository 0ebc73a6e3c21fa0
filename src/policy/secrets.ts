// Secrets kept out of what tools return: the configured API keys, and the values of environment variables
// whose names look like secrets (*_KEY, *_TOKEN, *_SECRET, *PASSWORD*), wherever they appear verbatim.
import type { AgentToolResult, AfterToolCallResult } from "../core/agent-types.js";

/** What a masked value becomes. */
export const MASK = "***";
const SECRET_NAME = /(_KEY|_TOKEN|_SECRET)$|PASSWORD/i;
/** Shorter values are not masked: "true", "1" or a local server's "none" would mangle ordinary output. */
const MIN_SECRET_LENGTH = 8;
/** A live update may start or end inside a secret (its tail was cut there): this much of one is masked too. */
const MIN_EDGE = 4;

export interface SecretMask {
	/** The values masked, longest first. */
	readonly values: readonly string[];
	/** The text with every secret value replaced. */
	mask(text: string): string;
	/** mask(), and a secret's start at the text's end or its end at the text's start (output cut mid-secret). */
	maskLive(text: string): string;
}

/** The secrets of `env` (by name) and the configured keys (an explicit key, models.json, the providers' variables). */
export function secretMask(env: NodeJS.ProcessEnv, configuredKeys: readonly (string | undefined)[]): SecretMask {
	const fromEnv = Object.entries(env)
		.filter(([name]) => SECRET_NAME.test(name))
		.map(([, value]) => value);
	const values = [...new Set([...configuredKeys, ...fromEnv])]
		.filter((value): value is string => typeof value === "string" && value.trim().length >= MIN_SECRET_LENGTH)
		.sort((a, b) => b.length - a.length);
	const mask = (text: string) => (values.length === 0 ? text : values.reduce((out, value) => (out.includes(value) ? out.split(value).join(MASK) : out), text));
	return {
		values,
		mask,
		maskLive(text) {
			let out = mask(text);
			for (const value of values) {
				for (let length = value.length - 1; length >= MIN_EDGE; length--) {
					if (out.endsWith(value.slice(0, length))) {
						out = out.slice(0, -length) + MASK;
						break;
					}
				}
				for (let length = value.length - 1; length >= MIN_EDGE; length--) {
					if (out.startsWith(value.slice(-length))) {
						out = MASK + out.slice(length);
						break;
					}
				}
			}
			return out;
		},
	};
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
