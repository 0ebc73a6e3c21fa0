// A server's tools as loom tool definitions: `mcp__<server>__<tool>`, the server's JSON Schema checked like any
// tool's arguments, `readOnly` from the tool's readOnlyHint, progress shown while a call runs, and the result
// converted to content the model reads.
import type { AgentToolResult, ToolDefinition } from "../../core/index.js";
import { checkableSchema, textFromContent } from "../../core/index.js";
import type { ListedTool } from "./open-client.js";
import type { ServerConnection } from "./server-connection.js";
import { convertToolResult, type McpToolDetails } from "./tool-result.js";

/** The definition of one listed tool of `connection`, named `name`. */
export function mcpToolDefinition(connection: ServerConnection, tool: ListedTool, name: string): ToolDefinition<any, McpToolDetails> {
	const server = connection.name;
	return {
		name,
		label: `${server}: ${tool.title ?? tool.annotations?.title ?? tool.name}`,
		description: tool.description?.trim() || `The tool ${tool.name} of the MCP server ${server}.`,
		parameters: checkableSchema(tool.inputSchema),
		readOnly: tool.annotations?.readOnlyHint === true ? true : undefined,
		async execute(_toolCallId, params, signal, onUpdate): Promise<AgentToolResult<McpToolDetails>> {
			const details: McpToolDetails = { server, tool: tool.name };
			const result = await connection.call(tool.name, (params ?? {}) as Record<string, unknown>, {
				signal,
				timeoutMs: connection.entry.spec!.timeoutMs,
				onProgress: ({ progress, total, message }) => {
					const count = total === undefined ? `${progress}` : `${progress}/${total}`;
					onUpdate?.({ content: [{ type: "text", text: message ? `progress ${count}: ${message}` : `progress ${count}` }], details });
				},
			});
			const converted = await convertToolResult(result, server, tool.name);
			if (converted.isError) {
				const text = textFromContent(converted.content);
				throw new Error(text || `MCP server ${server} reported an error without a message.`);
			}
			return { content: converted.content, details: converted.details };
		},
	};
}
