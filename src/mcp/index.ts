// Public entry of the MCP client: configuration, and the one function the session's assembly calls.
export { type ConfiguredServer, loadMcpConfig, type McpConfig, type McpConfigOptions, PROJECT_CONFIG_FILE, USER_CONFIG_FILE } from "./config-sources.js";
export { type InstallMcpOptions, installMcp } from "./install-mcp.js";
export { McpConfigError } from "./mcp-config.js";
export { McpServers } from "./mcp-servers.js";
export { isMcpToolName, matchesToolPattern, patternMayNameServer } from "./tool-names.js";
