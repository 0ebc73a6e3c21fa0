// The values an MCP configuration holds that may be credentials, each with the name it is given under: a stdio
// server's `env`, an HTTP server's `headers`, its URL's query parameters, and `--option value` arguments. Which
// are secrets (masked wherever a tool or a notice echoes them) is the policy's call, by name.
import { loadMcpConfig, type McpConfigOptions } from "./config-sources.js";
import type { McpServerSpec } from "./mcp-config.js";

/** [name, value] of every configured server (the project's too, trusted or not); [] when the configuration cannot be read. */
export function configuredMcpCredentials(options: Omit<McpConfigOptions, "projectTrusted">): [string, string][] {
	try {
		return loadMcpConfig({ ...options, projectTrusted: true }).servers.flatMap((server) => (server.spec ? credentialsOf(server.spec) : []));
	} catch {
		// A broken --mcp-config is reported when the servers are installed.
		return [];
	}
}

function credentialsOf(spec: McpServerSpec): [string, string][] {
	if (spec.transport !== "stdio") {
		const query = URL.canParse(spec.url) ? [...new URL(spec.url).searchParams] : [];
		return [...Object.entries(spec.headers), ...query];
	}
	const options = spec.args.flatMap((arg, at): [string, string][] => {
		const attached = /^--?([^=]+)=(.+)$/s.exec(arg);
		if (attached) return [[attached[1], attached[2]]];
		const next = spec.args[at + 1];
		return arg.startsWith("-") && next !== undefined && !next.startsWith("-") ? [[arg.replace(/^-+/, ""), next]] : [];
	});
	return [...Object.entries(spec.env), ...options];
}
