// Public entry of the MCP client: the one function the session's assembly calls, and what it may throw.
export { type InstallMcpOptions, installMcp } from "./install-mcp.js";
export { McpConfigError } from "./mcp-config.js";
export { McpServers, type McpToolSet } from "./mcp-servers.js";
