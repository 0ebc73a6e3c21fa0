// The three timelines of a run, printed as they happen: the agent and its turns, the messages (streamed in
// updates), and the tool executions. A tool's row and a message's text are different streams: message_update
// never carries tool progress, and tool_execution_* never carries the model's text.
//   npx jiti examples/03-events.ts "List the files here"
import { createAgentSession, type SessionEvent, SessionManager } from "loom";

function timeline(event: SessionEvent): string | undefined {
	switch (event.type) {
		case "agent_start":
		case "agent_end":
		case "turn_start":
		case "turn_end":
			return `agent   | ${event.type}`;
		case "message_start":
		case "message_end":
			return `message | ${event.type} (${event.message.role})`;
		case "message_update":
			return event.assistantMessageEvent.type === "text_delta" ? `message | message_update +${JSON.stringify(event.assistantMessageEvent.delta)}` : undefined;
		case "tool_execution_start":
			return `tool    | tool_execution_start ${event.toolName} ${event.toolCallId}`;
		case "tool_execution_update":
			return `tool    | tool_execution_update ${event.toolCallId}`;
		case "tool_execution_end":
			return `tool    | tool_execution_end ${event.toolCallId}${event.isError ? " (error)" : ""}`;
		default:
			return undefined;
	}
}

const { session } = await createAgentSession({ sessionManager: SessionManager.inMemory() });
try {
	const unsubscribe = session.subscribe((event) => {
		const line = timeline(event);
		if (line) console.log(line);
	});
	await session.prompt(process.argv.slice(2).join(" ") || "List the files in this directory.");
	unsubscribe();
} finally {
	session.dispose();
}
