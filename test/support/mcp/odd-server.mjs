// A small stdio MCP server (the SDK's low-level Server) with what real servers sometimes send: an output schema
// a JSON Schema compiler refuses (a pattern JavaScript cannot compile), and a result with structured content only.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const server = new Server({ name: "odd", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
	tools: [
		{
			name: "weather",
			description: "Weather of a city.",
			inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
			outputSchema: { type: "object", properties: { code: { type: "string", pattern: "(?<unclosed" } } },
		},
	],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({
	content: [],
	structuredContent: { city: request.params.arguments?.city, code: "sunny" },
}));
await server.connect(new StdioServerTransport());
