// Public entry of the agent core.
export * from "./llm-types.js";
export * from "./agent-types.js";
export { createAssistantMessageEventStream } from "./event-stream.js";
export { agentLoop, agentLoopContinue } from "./agent-loop.js";
export { emptyUsage } from "./llm/usage.js";
export { Agent, defaultConvertToLlm, type AgentOptions } from "./agent.js";
export { emptyAssistantMessage, inlinedFile, userMessage } from "./messages.js";
export { validateToolArguments } from "./validate-tool-arguments.js";
export { createErrorToolResult } from "./tool-execution.js";
export type { SessionEvent } from "./session/session-events.js";
export * from "./tool-definition.js";
export { lastLines, oneLine } from "./tool-lines.js";
export { rawField, rawNumber, rawString } from "./raw-value.js";
