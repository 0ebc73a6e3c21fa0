// Compaction: context accounting, the cut, the summary, and the compacted view of a session.
export { compact } from "./compact.js";
export { buildCompactedContext } from "./compacted-context.js";
export { CompactionError, compactionAborted, isCompactionAborted } from "./generate-summary.js";
export {
	DEFAULT_COMPACTION_SETTINGS,
	compactionThreshold,
	resolveCompactionSettings,
	shouldCompact,
	type CompactionSettings,
} from "./compaction-settings.js";
export { findCutPoint } from "./cut-point.js";
export { collectFileOperations, formatFileLists, splitFileLists, type FileEffectTool } from "./file-operations.js";
export { generateSummary } from "./generate-summary.js";
export { applyCompactionToLoopMessages } from "./compacted-context.js";
export { serializeConversation } from "./serialize-conversation.js";
export { buildSessionContext, type SessionContext } from "./compacted-context.js";
export {
	SUMMARY_LEAD_IN,
	compactionSummaryToUser,
	convertToLlmWithSummaries,
	createCompactionSummary,
	isCompactionSummary,
} from "./summary-message.js";
export { SUMMARY_SYSTEM_PROMPT, buildSummaryPrompt } from "./summary-prompt.js";
export {
	IMAGE_TOKENS,
	contextUsage,
	estimateContextBreakdown,
	estimateContextTokens,
	estimateTokens,
} from "./token-estimate.js";
