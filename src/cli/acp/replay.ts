// A saved conversation as the `session/update`s a client replays when it loads the session: the user's
// messages, the answers and thinking, and every tool call with how it ended, in the order they happened.
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { type AgentMessage, findTool, pairToolResults, type ToolCall, type ToolDefinition, type ToolResultMessage } from "../../core/index.js";
import { finishedCall } from "./session-updates.js";
import { type CallStart, contentBlock, toolCallStart } from "./tool-calls.js";

export function replayUpdates(messages: readonly AgentMessage[], tools: readonly ToolDefinition[], cwd: string): SessionUpdate[] {
	const updates: SessionUpdate[] = [];
	// Each result's call, as the messages pair them (ids are unique within one message only); calls in order.
	const callOf = new Map<ToolResultMessage, ToolCall>([...pairToolResults(messages)].map(([call, result]) => [result, call]));
	const open = new Map<ToolCall, CallStart>();
	for (const message of messages) {
		switch (message.role) {
			case "user": {
				const blocks = typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
				for (const block of blocks) {
					updates.push({
						sessionUpdate: "user_message_chunk",
						content: contentBlock(block),
					});
				}
				break;
			}
			case "assistant":
				for (const block of message.content) {
					if (block.type === "text" && block.text !== "") updates.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: block.text } });
					else if (block.type === "thinking" && !block.redacted && block.thinking !== "") {
						updates.push({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: block.thinking } });
					} else if (block.type === "toolCall") {
						const call = { toolCallId: block.id, toolName: block.name, args: block.arguments, tool: findTool(tools, block.name) };
						open.set(block, call);
						updates.push({ sessionUpdate: "tool_call", ...toolCallStart(call, cwd) });
					}
				}
				break;
			case "toolResult": {
				const block = callOf.get(message);
				const call = block && open.get(block);
				if (!block || !call) break;
				open.delete(block);
				updates.push(finishedCall({ ...call, result: message, isError: message.isError }, cwd));
				break;
			}
		}
	}
	// A call the file holds no result for (loom was stopped while it ran) did not finish.
	for (const call of open.values()) updates.push({ sessionUpdate: "tool_call_update", toolCallId: call.toolCallId, status: "failed" });
	return updates;
}
