// `/mcp`: the configured servers, their state and their tools; `/mcp restart <server>` starts one again.
import { formatCount } from "../../core/index.js";
import type { CommandDefinition } from "../../core/index.js";
import type { McpServers } from "./mcp-servers.js";
import type { ServerConnection } from "./server-connection.js";
import { serverToolPrefix } from "./tool-names.js";

/** Tool names listed under a server before the rest are counted. */
const LISTED_TOOLS = 30;

export function mcpCommand<S>(servers: McpServers, home: string): CommandDefinition<S> {
	return {
		name: "mcp",
		argsHint: "[restart|login <server>]",
		description: "MCP servers: their state and tools (restart <server> starts one again; login <server> signs in with OAuth)",
		source: "builtin",
		async handler(args, ctx) {
			const [verb, ...rest] = args.split(/\s+/).filter(Boolean);
			if (verb === undefined) {
				ctx.notify("info", describeServers(servers));
				return;
			}
			if ((verb !== "restart" && verb !== "login") || rest.length !== 1) {
				ctx.notify("error", "Usage: /mcp (list the servers), /mcp restart <server> or /mcp login <server>.");
				return;
			}
			const connection = servers.connections.find((candidate) => candidate.name === rest[0]);
			if (!connection) {
				ctx.notify("error", `No MCP server is named ${rest[0]}; ${names(servers)}.`);
				return;
			}
			if (!connection.startable || connection.state === "unusable") {
				ctx.notify("error", `MCP server ${connection.name} cannot be started: ${stateText(connection)}.`);
				return;
			}
			if (verb === "login") {
				const spec = connection.entry.spec;
				if (!spec || spec.transport === "stdio") {
					ctx.notify("error", `MCP server ${connection.name} runs as a local command; only HTTP servers sign in with OAuth.`);
					return;
				}
				try {
					const { signInToServer } = await import("./mcp-login-command.js");
					await signInToServer({ name: connection.name, url: spec.url, home, env: process.env, say: (text) => ctx.notify("info", text) });
				} catch (error) {
					ctx.notify("error", `Signing in to MCP server ${connection.name} failed: ${(error as Error).message}`);
					return;
				}
			}
			await connection.restart();
			// A failure was reported as it happened.
			if (connection.state === "ready") ctx.notify("info", `MCP server ${connection.name} is ready: ${formatCount(connection.tools.length, "tool")}.`);
		},
	};
}

function names(servers: McpServers): string {
	const all = servers.connections.map((connection) => connection.name);
	return all.length === 0 ? "none is configured" : `configured: ${all.join(", ")}`;
}

/** Every server on a line (state, transport, where it is configured), its tools' names under it. */
function describeServers(servers: McpServers): string {
	if (servers.connections.length === 0) {
		return "No MCP servers are configured. Add them to .mcp.json in the project or to mcp.json in loom's home (or pass --mcp-config <file>).";
	}
	const lines = ["MCP servers:"];
	for (const connection of servers.connections) {
		const spec = connection.entry.spec;
		const transport = spec ? spec.transport : "";
		const state = connection.state === "closed" && !servers.wanted(connection) ? "not started: --tools names none of its tools" : stateText(connection);
		lines.push(`  ${connection.name} · ${state}${transport ? ` · ${transport}` : ""} · ${connection.entry.source}`);
		const tools = servers.toolsOf(connection);
		if (tools.length === 0) continue;
		// Names are shown after the prefix they share.
		const prefix = serverToolPrefix(connection.name);
		const shown = tools.slice(0, LISTED_TOOLS).map(({ name, enabled }) => {
			const short = name.startsWith(prefix) ? name.slice(prefix.length) : name;
			return enabled ? short : `${short} (off: --tools)`;
		});
		const more = tools.length > LISTED_TOOLS ? `, and ${tools.length - LISTED_TOOLS} more` : "";
		lines.push(`    ${formatCount(tools.length, "tool")} (${prefix}*): ${shown.join(", ")}${more}`);
	}
	return lines.join("\n");
}

function stateText(connection: ServerConnection): string {
	switch (connection.state) {
		case "ready":
			return "ready";
		case "starting":
			return "starting";
		case "failed":
			return `failed: ${connection.problem}${connection.restarts > 0 ? ` (restarted ${formatCount(connection.restarts, "time")})` : ""}`;
		case "closed":
			return "closed";
		case "disabled":
			return "disabled in its configuration";
		case "untrusted":
			return "not started: the project is not trusted";
		case "unusable":
			return `not started: ${connection.problem}`;
	}
}
