// Public entry of the agent core.
export * from "./llm-types.js";
export * from "./agent-types.js";
export { EventStream, createAssistantMessageEventStream } from "./event-stream.js";
export { agentLoop, agentLoopContinue, type AgentEventSink } from "./agent-loop.js";
export { emptyUsage } from "./llm/usage.js";
export { Agent, defaultConvertToLlm, type AgentListener, type AgentOptions, type AgentStateView, type QueueMode } from "./agent.js";
export { emptyAssistantMessage, errorAssistantMessage, inlinedFile, type PromptOptions, userMessage } from "./messages.js";
export { validateToolArguments } from "./validate-tool-arguments.js";
export { createErrorToolResult } from "./tool-execution.js";
export type { SessionEvent, SessionOwnEvent, CompactionReason, RunOutcomeStatus } from "./session/session-events.js";
export * from "./tool-definition.js";
export { capLines, lastLines, oneLine, tailLines } from "./tool-lines.js";
export { rawBoolean, rawField, rawNumber, rawString } from "./raw-value.js";
