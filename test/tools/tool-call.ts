// Runs a tool definition once, as the agent loop would, and reads its result.
import type { AgentToolResult, ToolDefinition } from "../../src/core/index.js";

export async function callTool<T>(tool: ToolDefinition<any, T>, params: unknown, signal?: AbortSignal): Promise<{ text: string; details: T }> {
	const result: AgentToolResult<T> = await tool.execute("call-1", params as never, signal);
	const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
	return { text, details: result.details };
}
