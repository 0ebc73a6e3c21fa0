// The MCP servers an editor passes, read back by loom's own configuration parser.
import { describe, expect, it } from "vitest";
import { mcpConfigText } from "../../../src/cli/acp/mcp-config.js";
import { parseMcpConfig } from "../../../src/plugs/mcp/mcp-config.js";

describe("the editor's MCP servers as configuration", () => {
	it("gives stdio, http and sse servers with their environment and headers", () => {
		const text = mcpConfigText([
			{ name: "files", command: "/usr/bin/fs-server", args: ["--root", "/p"], env: [{ name: "TOKEN", value: "t1" }] },
			{ type: "http", name: "remote", url: "https://mcp.example.com/mcp", headers: [{ name: "Authorization", value: "Bearer x" }] },
			{ type: "sse", name: "old", url: "http://127.0.0.1:9000/sse", headers: [] },
		]);
		const entries = parseMcpConfig(text!, { source: "the editor", env: {}, cwd: "/p" });
		expect(entries.map((entry) => [entry.name, entry.spec])).toEqual([
			["files", expect.objectContaining({ transport: "stdio", command: "/usr/bin/fs-server", args: ["--root", "/p"], env: { TOKEN: "t1" }, cwd: "/p" })],
			["remote", expect.objectContaining({ transport: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer x" } })],
			["old", expect.objectContaining({ transport: "sse", url: "http://127.0.0.1:9000/sse", headers: {} })],
		]);
		expect(mcpConfigText([])).toBeUndefined();
	});
});
