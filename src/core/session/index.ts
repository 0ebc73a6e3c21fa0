// Public entry of the session layer: sessions on disk, settings, the system prompt, and AgentSession.
export * from "./session-events.js";
export { loomHome } from "./loom-home.js";
export { APPROVAL_MODES, type ApprovalMode } from "./approval-mode.js";
export {
	type Settings,
	SettingsError,
	SettingsSchema,
	loadProjectSettings,
	loadSettings,
	parseSettings,
	projectSettingsPath,
	settingsPath,
} from "./settings.js";
export * from "./session-entries.js";
export { cwdFolderName, sessionDirFor, sessionFileName, sessionIdFromFileName, sessionsRoot } from "./session-paths.js";
export { type LoadedSession, loadSessionFile } from "./session-reader.js";
export { type NewSessionOptions, SessionStore } from "./session-store.js";
export { describeHolder, type LockHolder, SessionInUseError } from "./session-lock.js";
export { type SessionContext, buildSessionContext } from "./session-context.js";
export { type SessionInfo, listAllSessions, listSessions, newestSessionFile, readSessionInfo } from "./session-list.js";
export { resolveSessionArgument } from "./session-resolve.js";
export { CONTEXT_FILE_NAMES, type ContextFile, ancestorsFromRoot, loadContextFiles } from "./context-files.js";
export { type PromptParts, type PromptSkill, type PromptTool, type SystemPromptOptions, buildSystemPrompt } from "./system-prompt.js";
export { type UsageTotals, addUsage, sumEntryUsage, sumUsage, zeroUsage } from "./usage-totals.js";
export { ModelChoice, type ModelResolver, type ModelSelection } from "./model-choice.js";
export { MessageQueue, type QueueKind } from "./message-queue.js";
export type { ApprovalChoice, ApprovalSubject } from "./session-ui.js";
export { type ToolSettings } from "./session-tools.js";
export { RetryTracker } from "./retry-tracker.js";
export {
	COMMAND_NAME,
	type CommandContext,
	type CommandDefinition,
	type CommandLookup,
	CommandRegistry,
	type CommandRegistryOptions,
	type CommandScope,
	type CommandSource,
	commandRank,
	hiddenCommandNotice,
	type NoticeLevel,
	parseSlashCommand,
	type SlashCommand,
} from "./command-registry.js";
export { type CommandSession, SESSION_COMMANDS, type SessionSummary, registerSessionCommands } from "./session-commands.js";
export { type AfterLink, type BeforeLink, HookChain, type HookStage, type LinkOptions, ToolHooks, composeAfter, composeBefore } from "./hook-chain.js";
export { AgentSession, type AgentSessionOptions, type RunOutcome, type SessionListener } from "./agent-session.js";
export type { RunGate } from "./run-gates.js";
export * from "./compaction/index.js";
export { type CompactionHost, SessionCompaction, type SessionCompactionOptions } from "./session-compaction.js";
export { type InputOptions, type SelectOptions, type SessionUi, type UiChoice, UiSlot, nonInteractiveUi } from "./session-ui.js";
export { isProjectTrusted, projectTrust, setProjectTrust } from "./project-trust.js";
export { ProjectTrustGate, type ProjectTrustStatus } from "./project-trust-gate.js";
export { type FileAction, type FileChange, type FileCheckpoints, type FilesRestore, type RestoreReport, describePaths } from "./file-checkpoints.js";
export { type PromptPoint, type SessionTree, type TreeRow, promptPoints, promptText, sessionTree } from "./session-tree.js";
export { type RewindResult, type RewindScope, describeRewind } from "./session-rewind.js";
export { BRANCH_COMMANDS } from "./branch-commands.js";
