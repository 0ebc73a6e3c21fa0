// The one entry the session's assembly calls: reads the configuration, starts the servers (without delaying
// anything; a project's once it is trusted), gives their tools to the session's tool set as each becomes ready,
// makes a prompt wait for servers still starting, registers `/mcp`, and closes the servers with the session.
import type { AgentSession, ConfineSpawn, ProjectTrustGate } from "../../core/index.js";
import { loadMcpConfig } from "./config-sources.js";
import { mcpCommand } from "./mcp-command.js";
import { McpServers, type McpToolSet } from "./mcp-servers.js";
import { projectServerLabel } from "./server-label.js";
import { patternMayNameServer } from "./tool-names.js";

export interface InstallMcpOptions {
	cwd: string;
	home: string;
	/** `--mcp-config` values, in order: files (relative to cwd) or JSON text. */
	configs?: readonly string[];
	/** The project's servers start through it, once the project is trusted. */
	trust: ProjectTrustGate;
	/** The session's tool set; told that names of the servers' tools are to come. */
	tools: McpToolSet & { expectTools(expected: { accepts(pattern: string): boolean; hint: string }): void };
	/** The version loom gives servers when it connects. */
	clientVersion?: string;
	/** The sandbox's launcher: stdio servers start through it. */
	confine?: ConfineSpawn;
}

/**
 * Starts the configured servers for `session`. A broken `--mcp-config` throws McpConfigError; a broken standing
 * file is a load warning. Returns the servers; the session's dispose() closes them politely (and every stdio
 * server's process group is killed when loom exits in any case).
 */
export function installMcp(session: AgentSession, options: InstallMcpOptions): McpServers {
	const { trust, tools } = options;
	const config = loadMcpConfig({ cwd: options.cwd, home: options.home, configs: options.configs, projectTrusted: trust.status === "trusted" });
	for (const problem of config.problems) session.addLoadWarning(`${problem} Its MCP servers were left out.`);
	for (const note of config.notes) session.addLoadWarning(note);
	const servers = new McpServers(config.servers, {
		tools,
		// A server's messages may echo its configured credentials.
		notify: (level, text) => session.ui.notify(level, session.maskSecrets(text)),
		// The SDK loads here, on the first server's start: a session without servers never loads it.
		open: async (spec, events) => {
			const name = config.servers.find((server) => server.spec === spec)?.name ?? "server";
			return (await import("./open-client.js")).openClient(spec, options.clientVersion ?? "0", events, options.confine, {
				home: options.home,
				server: name,
				warn: (text) => session.ui.notify("warning", session.maskSecrets(text)),
			});
		},
	});
	session.commands.register(mcpCommand(servers, options.home));
	if (config.servers.length === 0) return servers;
	const names = config.servers.map((server) => server.name);
	// A server's tool names are known once it has started: --tools may name them meanwhile.
	tools.expectTools({
		accepts: (pattern) => names.some((name) => patternMayNameServer(pattern, name)),
		hint: `mcp__<server>__<tool> (mcp__<server>__* for all) of the MCP servers ${names.join(", ")}`,
	});
	session.onDispose(() => void servers.close());
	session.addRunGate((signal) => servers.beforeRun(signal));
	servers.start();
	const project = servers.projectServers;
	if (project.length > 0) void trust.whenTrusted(project.map((connection) => projectServerLabel(connection.name, connection.entry.spec, (text) => session.maskSecrets(text))), () => servers.startProject());
	return servers;
}
