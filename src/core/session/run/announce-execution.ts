// When a tool call really starts: the agent's tool_execution_start comes at preflight, before the arguments are
// validated and the before-chain (approval, extensions) has let the call through, so it cannot tell a call
// waiting from one running. The session hands the agent its tools wrapped so that each says when its execute()
// begins, and reports that as its own event (tool_execution_running); the agent's events stay as specified.
import type { AgentTool } from "../../engine/index.js";

export function announceExecution<T extends AgentTool<any>>(tools: readonly T[], announce: (toolCallId: string, toolName: string) => void): T[] {
	return tools.map((tool) => {
		const execute: AgentTool<any>["execute"] = (toolCallId, params, signal, onUpdate) => {
			announce(toolCallId, tool.name);
			return tool.execute(toolCallId, params, signal, onUpdate);
		};
		return { ...tool, execute };
	});
}
