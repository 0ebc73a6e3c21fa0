// Public entry of the MCP client: the one function the session's assembly calls, and what it may throw.
export { installMcp } from "./install-mcp.js";
export { serverToolPrefix } from "./tool-names.js";
export { McpConfigError } from "./mcp-config.js";
export { configuredMcpCredentials } from "./config-credentials.js";
export { runMcpLogin } from "./mcp-login-command.js";
