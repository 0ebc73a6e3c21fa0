// The MCP server configuration, in the format Claude Code reads (`.mcp.json`):
//   { "mcpServers": { "<name>": { "command", "args", "env", "cwd" } | { "type": "http" | "sse", "url", "headers" } } }
// plus loom's optional `timeout` (ms a call may go without an answer or progress) and `startupTimeout` (ms).
// VS Code's shape (`.vscode/mcp.json`) is read too: its servers are under "servers", with the same fields.
// Keys loom does not know are ignored, so a file written for another client still loads.
import { isAbsolute, resolve } from "node:path";
import { parseJson, expandHome, errorMessage, isRecord } from "../../core/index.js";

export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;

export interface StdioServerSpec {
	transport: "stdio";
	command: string;
	args: string[];
	/** Added to loom's own environment. */
	env: Record<string, string>;
	/** Absolute; loom's working directory when the configuration gives none. */
	cwd: string;
}

export interface HttpServerSpec {
	/** "http": streamable HTTP; "sse": the older HTTP+SSE transport. */
	transport: "http" | "sse";
	url: string;
	headers: Record<string, string>;
}

export type McpServerSpec = (StdioServerSpec | HttpServerSpec) & {
	/** A call fails when the server sends neither its answer nor progress for this long. */
	timeoutMs: number;
	/** Connecting and listing the tools must end within this. */
	startupTimeoutMs: number;
};

/** One configured server: what to start, or why it cannot be. */
export interface McpServerEntry {
	name: string;
	/** The file (or flag) it came from, as messages name it. */
	source: string;
	spec?: McpServerSpec;
	disabled?: boolean;
	/** Why the server cannot start (a variable it names is not set). */
	problem?: string;
}

/** A configuration file that cannot be used; the message names the file and the field. */
export class McpConfigError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "McpConfigError";
	}
}

export interface ParseContext {
	/** How the file is named in messages. */
	source: string;
	env: Readonly<Record<string, string | undefined>>;
	/** Relative `cwd` values resolve against this (loom's working directory). */
	cwd: string;
	/** What the user should know about a file that was read all the same (each note starts with `source`). */
	notes?: string[];
}

/** Claude Code's key for the servers, and VS Code's, read when Claude Code's is absent. */
const SERVERS_KEY = "mcpServers";
const VSCODE_SERVERS_KEY = "servers";

/** The servers of one configuration file's text, in the file's order; throws McpConfigError. */
export function parseMcpConfig(text: string, context: ParseContext): McpServerEntry[] {
	let value: unknown;
	try {
		value = parseJson(text);
	} catch (error) {
		throw new McpConfigError(`${context.source}: invalid JSON: ${errorMessage(error)}.`);
	}
	const fail = (field: string, problem: string, got?: unknown) =>
		new McpConfigError(`${context.source}: ${field}: ${problem}${got === undefined ? "" : ` (got ${describe(got)})`}.`);
	if (!isRecord(value)) throw fail("(top level)", 'must be a JSON object like {"mcpServers": {...}}', value);
	const key = value[SERVERS_KEY] === undefined && value[VSCODE_SERVERS_KEY] !== undefined ? VSCODE_SERVERS_KEY : SERVERS_KEY;
	if (key === SERVERS_KEY && value[VSCODE_SERVERS_KEY] !== undefined) {
		context.notes?.push(
			`${context.source}: has both "${SERVERS_KEY}" and "${VSCODE_SERVERS_KEY}" (VS Code's); loom uses "${SERVERS_KEY}" and ignores "${VSCODE_SERVERS_KEY}".`,
		);
	}
	const servers = value[key];
	if (servers === undefined) return [];
	if (!isRecord(servers)) throw fail(key, "must be an object of servers by name", servers);
	return Object.entries(servers).map(([name, raw]) => parseServer(name, raw, `${key}.${JSON.stringify(name)}`, context, fail));
}

type Fail = (field: string, problem: string, got?: unknown) => McpConfigError;

/** One server's entry; `at` is how messages name it ('mcpServers."github"'). */
function parseServer(name: string, raw: unknown, at: string, context: ParseContext, fail: Fail): McpServerEntry {
	if (name.trim() === "") throw fail(at, "a server needs a name");
	if (!isRecord(raw)) throw fail(at, 'must be an object with "command" (a local server) or "url" (a remote one)', raw);
	const field = (key: string) => `${at}.${key}`;
	const entry: McpServerEntry = { name, source: context.source };
	if (raw.disabled !== undefined && typeof raw.disabled !== "boolean") throw fail(field("disabled"), "must be true or false", raw.disabled);
	const timeoutMs = optionalMilliseconds(raw.timeout, field("timeout"), fail) ?? DEFAULT_CALL_TIMEOUT_MS;
	const startupTimeoutMs = optionalMilliseconds(raw.startupTimeout, field("startupTimeout"), fail) ?? DEFAULT_STARTUP_TIMEOUT_MS;
	const transport = transportOf(raw, field, fail);
	// Variables are expanded last: a missing one makes this server unusable, not the whole file.
	const missing = new Set<string>();
	const expand = (text: string): string => {
		try {
			return expandVariables(text, context.env);
		} catch (error) {
			if (!(error instanceof MissingVariablesError)) throw error;
			for (const variable of error.names) missing.add(variable);
			return text;
		}
	};
	let spec: McpServerSpec;
	if (transport === "stdio") {
		const command = requiredString(raw.command, field("command"), fail);
		const args = optionalStringArray(raw.args, field("args"), fail);
		const env = optionalStringRecord(raw.env, field("env"), fail);
		const cwd = optionalString(raw.cwd, field("cwd"), fail);
		spec = {
			transport,
			command: expand(command),
			args: args.map(expand),
			env: Object.fromEntries(Object.entries(env).map(([key, value]) => [key, expand(value)])),
			cwd: cwd === undefined ? context.cwd : absolute(expand(cwd), context.cwd),
			timeoutMs,
			startupTimeoutMs,
		};
	} else {
		const url = expand(requiredString(raw.url, field("url"), fail));
		if (missing.size === 0 && !isHttpUrl(url)) throw fail(field("url"), "must be an http:// or https:// URL", url);
		const headers = optionalStringRecord(raw.headers, field("headers"), fail);
		spec = {
			transport,
			url,
			headers: Object.fromEntries(Object.entries(headers).map(([key, value]) => [key, expand(value)])),
			timeoutMs,
			startupTimeoutMs,
		};
	}
	if (raw.disabled === true) entry.disabled = true;
	if (missing.size > 0) {
		const names = [...missing].map((variable) => `\${${variable}}`).join(", ");
		const [first] = missing;
		entry.problem = `${names} ${missing.size === 1 ? "is" : "are"} not set in the environment: set ${missing.size === 1 ? "it" : "them"}, or give a default like \${${first}:-default}`;
	} else {
		entry.spec = spec;
	}
	return entry;
}

function transportOf(raw: Record<string, unknown>, field: (key: string) => string, fail: Fail): "stdio" | "http" | "sse" {
	const type = raw.type;
	if (type === undefined) return raw.url !== undefined && raw.command === undefined ? "http" : "stdio";
	if (type === "stdio" || type === "http" || type === "sse") return type;
	// Other clients' spellings of streamable HTTP.
	if (type === "streamable-http" || type === "streamableHttp") return "http";
	throw fail(field("type"), 'must be "stdio", "http" or "sse"', type);
}

function optionalMilliseconds(value: unknown, field: string, fail: Fail): number | undefined {
	if (value === undefined) return undefined;
	if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) throw fail(field, "must be a positive number of milliseconds", value);
	return value;
}

function requiredString(value: unknown, field: string, fail: Fail): string {
	if (typeof value !== "string" || value.trim() === "") throw fail(field, "must be a non-empty string", value);
	return value;
}

function optionalString(value: unknown, field: string, fail: Fail): string | undefined {
	if (value === undefined) return undefined;
	return requiredString(value, field, fail);
}

function optionalStringArray(value: unknown, field: string, fail: Fail): string[] {
	if (value === undefined) return [];
	if (!Array.isArray(value)) throw fail(field, "must be an array of strings", value);
	value.forEach((item, index) => {
		if (typeof item !== "string") throw fail(`${field}[${index}]`, "must be a string", item);
	});
	return value as string[];
}

function optionalStringRecord(value: unknown, field: string, fail: Fail): Record<string, string> {
	if (value === undefined) return {};
	if (!isRecord(value)) throw fail(field, "must be an object of strings by name", value);
	for (const [key, item] of Object.entries(value)) {
		if (typeof item !== "string") throw fail(`${field}.${key}`, "must be a string", item);
	}
	return value as Record<string, string>;
}

function absolute(path: string, cwd: string): string {
	const expanded = expandHome(path);
	return isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
}

function isHttpUrl(text: string): boolean {
	try {
		const url = new URL(text);
		return url.protocol === "http:" || url.protocol === "https:";
	} catch {
		return false;
	}
}

/** A short, one-line rendering of a wrong value for a message. */
function describe(value: unknown): string {
	const text = JSON.stringify(value) ?? String(value);
	return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

// `${VAR}` and `${VAR:-default}` in MCP configuration values, as Claude Code reads them: a configuration file
// names a token it does not hold (`"Authorization": "Bearer ${GITHUB_TOKEN}"`).

/** A value names variables that are not set and have no default. */
export class MissingVariablesError extends Error {
	constructor(readonly names: readonly string[]) {
		super(`${names.map((name) => `\${${name}}`).join(", ")} ${names.length === 1 ? "is" : "are"} not set`);
		this.name = "MissingVariablesError";
	}
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * `text` with each `${VAR}` replaced by the variable's value and each `${VAR:-default}` by its value or, when it
 * is unset or empty, the default. Throws MissingVariablesError naming every unset variable without a default.
 */
export function expandVariables(text: string, env: Readonly<Record<string, string | undefined>>): string {
	const missing: string[] = [];
	const expanded = text.replace(REFERENCE, (_match, name: string, fallback: string | undefined) => {
		const value = env[name];
		if (fallback !== undefined) return value === undefined || value === "" ? fallback : value;
		if (value === undefined) {
			if (!missing.includes(name)) missing.push(name);
			return "";
		}
		return value;
	});
	if (missing.length > 0) throw new MissingVariablesError(missing);
	return expanded;
}
