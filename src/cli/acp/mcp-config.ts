// The MCP servers an editor passes with a session, as the configuration text loom reads for --mcp-config
// (.mcp.json's format): they start like the user's own servers, after the user's and the project's, and win a
// name they share. Their values are read like a configuration file's, so `${VAR}` is expanded.
import type { McpServer } from "@agentclientprotocol/sdk";

export function mcpConfigText(servers: readonly McpServer[]): string | undefined {
	if (servers.length === 0) return undefined;
	const pairs = (list: readonly { name: string; value: string }[]) => Object.fromEntries(list.map(({ name, value }) => [name, value]));
	const entries = servers.map((server) =>
		"type" in server
			? [server.name, { type: server.type, url: server.url, headers: pairs(server.headers) }]
			: [server.name, { command: server.command, args: server.args, env: pairs(server.env) }],
	);
	return JSON.stringify({ mcpServers: Object.fromEntries(entries) });
}
