// Public entry of the agent core.
export * from "./llm-types.js";
export * from "./agent-types.js";
export { EventStream, createAssistantMessageEventStream } from "./event-stream.js";
