// Public entry of the session layer: sessions on disk, settings, the system prompt, and AgentSession.
export * from "./session-events.js";
export { loomHome } from "./loom-home.js";
export { APPROVAL_MODES, type ApprovalMode } from "./approval-mode.js";
export { type Settings, SettingsError, loadSettings, settingsPath, settingsWarnings } from "./settings.js";
export * from "./session-entries.js";
export { cwdFolderName, sessionDirFor, sessionIdFromFileName, sessionsRoot } from "./session-paths.js";
export { loadSessionFile } from "./session-reader.js";
export { SessionStore } from "./session-store.js";
export { buildSessionContext } from "./session-context.js";
export { type SessionInfo, listAllSessions, listSessions, newestSessionFile, readSessionInfo } from "./session-list.js";
export { resolveSessionArgument } from "./session-resolve.js";
export { ancestorsFromRoot, loadContextFiles } from "./context-files.js";
export { buildSystemPrompt } from "./system-prompt.js";
export { type ModelResolver, type ModelSelection } from "./model-choice.js";
export type { ApprovalChoice } from "./session-ui.js";
export {
	COMMAND_NAME,
	type CommandContext,
	type CommandDefinition,
	type NoticeLevel,
	parseSlashCommand,
	type ResolvedCommand,
	resolveCommand,
	type SlashCommand,
} from "./command-registry.js";
export { type CommandSession } from "./session-commands.js";
export { AgentSession, type AgentSessionOptions, type RunOutcome, type SessionListener } from "./agent-session.js";
export * from "./compaction/index.js";
export {
	type InputOptions,
	type SelectOptions,
	type SessionUi,
	type UiChoice,
	nonInteractiveUi,
} from "./session-ui.js";
export { isProjectTrusted, projectTrust, setProjectTrust } from "./project-trust.js";
export { ProjectTrustGate } from "./project-trust-gate.js";
export { type PromptPoint, promptPoints, sessionTree } from "./session-tree.js";
export { type RewindResult, describeRewind } from "./session-rewind.js";
