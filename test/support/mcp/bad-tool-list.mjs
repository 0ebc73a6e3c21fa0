// A stdio MCP server written by hand (raw JSON-RPC lines) whose tool list breaks the MCP schema: its second
// tool's input schema is not an object schema.
import { createInterface } from "node:readline";

const tools = [
	{ name: "fine", description: "A tool as it should be.", inputSchema: { type: "object" } },
	{ name: "sloppy", description: "A tool whose input is a list.", inputSchema: { type: "array" } },
];
createInterface({ input: process.stdin }).on("line", (line) => {
	const message = JSON.parse(line);
	if (message.id === undefined) return;
	const result =
		message.method === "initialize"
			? { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "bad-tool-list", version: "1.0.0" } }
			: message.method === "tools/list"
				? { tools }
				: {};
	process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: message.id, result })}\n`);
});
