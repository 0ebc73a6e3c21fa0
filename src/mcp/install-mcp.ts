// The one entry the session's assembly calls: the configured MCP servers start (without delaying anything),
// their tools join the session's as each becomes ready, a prompt waits for servers still starting, `/mcp` is
// registered, and problems reach the user through the session's UI.
import { join } from "node:path";
import type { AgentSession } from "../core/session/agent-session.js";
import { isProjectTrusted } from "../core/session/project-trust.js";
import type { McpConfig } from "./config-sources.js";
import { mcpCommand } from "./mcp-command.js";
import { McpServers } from "./mcp-servers.js";

export interface InstallMcpOptions {
	cwd: string;
	home: string;
	/** `--tools` names and patterns; undefined enables every MCP tool. */
	toolPatterns?: readonly string[];
	/** The version loom gives servers when it connects. */
	clientVersion?: string;
}

/**
 * Starts `config`'s servers for `session`. Returns the servers; closing them ends every stdio server's process
 * group politely (they are killed in any case when loom exits).
 */
export function installMcp(session: AgentSession, config: McpConfig, options: InstallMcpOptions): McpServers {
	const notify = (level: "info" | "warning" | "error", text: string) => session.ui.notify(level, text);
	for (const problem of config.problems) session.addLoadWarning(`${problem} Its MCP servers were left out.`);
	const servers = new McpServers(config.servers, {
		host: {
			get tools() {
				return session.tools;
			},
			setTools: (tools) => session.setTools(tools),
			notify,
		},
		// The SDK loads here, on the first server's start: a session without servers never loads it.
		open: async (spec, events) => (await import("./open-client.js")).openClient(spec, options.clientVersion ?? "0", events),
		projectTrusted: () => isProjectTrusted(options.home, options.cwd),
		toolPatterns: options.toolPatterns,
		untrustedNotice: untrustedNotice(config, options.home),
	});
	session.commands.register(mcpCommand(servers));
	if (config.servers.length > 0) {
		session.addRunGate((signal) => servers.beforeRun(signal));
		servers.start();
	}
	return servers;
}

function untrustedNotice(config: McpConfig, home: string): string | undefined {
	const skipped = config.servers.filter((server) => server.fromProject).map((server) => server.name);
	if (config.projectTrusted || skipped.length === 0) return undefined;
	return `The MCP servers of ${config.projectFile} (${skipped.join(", ")}) were not started: this directory is not trusted. loom starts a project's servers once its directory is trusted (remembered in ${join(home, "trust.json")}).`;
}
