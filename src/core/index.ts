// Public entry of the agent core.
export * from "./ai/llm-types.js";
export * from "./engine/agent-types.js";
export { createAssistantMessageEventStream } from "./ai/llm-types.js";
export { agentLoop, agentLoopContinue } from "./engine/agent-loop.js";
export { emptyUsage } from "./ai/usage.js";
export { Agent, defaultConvertToLlm, type AgentOptions } from "./engine/agent.js";
export { emptyAssistantMessage, inlinedFile, userMessage } from "./ai/messages.js";
export { validateToolArguments } from "./engine/validate-tool-arguments.js";
export { createErrorToolResult } from "./engine/tool-execution.js";
export type { SessionEvent } from "./session/session-events.js";
export * from "./engine/tool-definition.js";
export { lastLines, oneLine } from "./engine/tool-definition.js";
export { rawField, rawNumber, rawString } from "./lib/raw-value.js";
