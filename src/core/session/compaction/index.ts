// Compaction: context accounting, the cut, the summary, and the compacted view of a session.
export * from "./compaction-settings.js";
export * from "./compaction-error.js";
export * from "./token-estimate.js";
export * from "./cut-point.js";
export * from "./summary-message.js";
export * from "./serialize-conversation.js";
export * from "./file-operations.js";
export * from "./summary-prompt.js";
export * from "./generate-summary.js";
export * from "./compacted-context.js";
export * from "./compact.js";
export * from "./loop-view.js";
