// Where MCP servers are configured, and which definition of a name wins: `--mcp-config` (files or JSON text,
// each adding servers), then the project's `.mcp.json`, then `<loom home>/mcp.json`. A project's servers start
// only in a trusted directory; until then they replace none of the user's.
import { join, resolve } from "node:path";
import { readConfigText, errorMessage } from "../../core/index.js";
import { McpConfigError, type McpServerEntry, parseMcpConfig } from "./mcp-config.js";

/** More than this is not a configuration file. */
const MAX_CONFIG_BYTES = 1024 * 1024;
export const PROJECT_CONFIG_FILE = ".mcp.json";
const USER_CONFIG_FILE = "mcp.json";

export interface McpConfigOptions {
	cwd: string;
	/** loom's home (settings, trust.json, mcp.json). */
	home: string;
	/** `--mcp-config` values, in order: a file's path, or JSON text. A later one wins a name. */
	configs?: readonly string[];
	/** Whether the project is trusted now: until it is, its servers replace none of the others. */
	projectTrusted: boolean;
	env?: Readonly<Record<string, string | undefined>>;
}

/** A configured server, and whether it comes from the project (and so waits for trust). */
export interface ConfiguredServer extends McpServerEntry {
	fromProject: boolean;
}

export interface McpConfig {
	servers: ConfiguredServer[];
	/** Standing files that could not be used (reported to the user; loom goes on without them). */
	problems: string[];
	/** What the user should know about files that were used (reported too). */
	notes: string[];
}

/**
 * Reads every configuration. A broken `--mcp-config` throws McpConfigError (the user named it just now); a
 * broken standing file is a problem to report, and its servers are left out.
 */
export function loadMcpConfig(options: McpConfigOptions): McpConfig {
	const env = options.env ?? process.env;
	const notes: string[] = [];
	const context = (source: string) => ({ source, env, cwd: options.cwd, notes });
	const problems: string[] = [];
	const standing = (path: string): McpServerEntry[] => {
		try {
			const text = readConfigFile(path);
			return text === undefined ? [] : parseMcpConfig(text, context(path));
		} catch (error) {
			if (!(error instanceof McpConfigError)) throw error;
			problems.push(error.message);
			return [];
		}
	};
	const user = standing(join(options.home, USER_CONFIG_FILE));
	const project = standing(join(options.cwd, PROJECT_CONFIG_FILE));
	const flags = (options.configs ?? []).flatMap((value) => {
		if (value.trimStart().startsWith("{")) return parseMcpConfig(value, context("--mcp-config"));
		const path = resolve(options.cwd, value);
		const text = readConfigFile(path);
		if (text === undefined) throw new McpConfigError(`--mcp-config ${value}: no such file (${path}).`);
		return parseMcpConfig(text, context(path));
	});
	const byName = new Map<string, ConfiguredServer>();
	const add = (entries: McpServerEntry[], fromProject: boolean) => {
		for (const entry of entries) {
			// Set again so the winner takes the later place, as it would in one merged file.
			byName.delete(entry.name);
			byName.set(entry.name, { ...entry, fromProject });
		}
	};
	add(user, false);
	add(options.projectTrusted ? project : project.filter((entry) => !byName.has(entry.name)), true);
	add(flags, false);
	return { servers: [...byName.values()], problems, notes };
}

/**
 * A configuration file's text; undefined when there is none. A file that is not a regular file (a FIFO would
 * block) or over MAX_CONFIG_BYTES is refused with a McpConfigError naming it.
 */
export function readConfigFile(path: string): string | undefined {
	try {
		return readConfigText(path, MAX_CONFIG_BYTES);
	} catch (error) {
		throw new McpConfigError(errorMessage(error));
	}
}
