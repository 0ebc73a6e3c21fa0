// Public entry of the session layer: sessions on disk, settings, the system prompt, and AgentSession.
export * from "./session-events.js";
export { loomHome } from "../config/loom-home.js";
export { APPROVAL_MODES, type ApprovalMode } from "../config/approval-mode.js";
export { type Settings, SettingsError, loadSettings, settingsPath, settingsWarnings } from "../config/settings.js";
export * from "./store/session-entries.js";
export { cwdFolderName, sessionDirFor, sessionIdFromFileName, sessionsRoot } from "./store/session-paths.js";
export { loadSessionFile } from "./store/session-reader.js";
export { SessionStore } from "./store/session-store.js";
export { buildSessionContext } from "./compaction/session-context.js";
export { type SessionInfo, listAllSessions, listSessions, newestSessionFile, readSessionInfo } from "./store/session-list.js";
export { resolveSessionArgument } from "./store/session-resolve.js";
export { ancestorsFromRoot, loadContextFiles } from "./prompt/context-files.js";
export { buildSystemPrompt } from "./prompt/system-prompt.js";
export { type ModelResolver, type ModelSelection } from "./model-choice.js";
export type { ApprovalChoice } from "./session-ui.js";
export { COMMAND_NAME, type CommandContext, type CommandDefinition, parseSlashCommand, type ResolvedCommand, resolveCommand, type SlashCommand } from "./commands/command-registry.js";
export type { NoticeLevel } from "./session-ui.js";
export { type CommandSession } from "./commands/session-commands.js";
export { AgentSession, type AgentSessionOptions, type RunOutcome, type SessionListener } from "./agent-session.js";
export * from "./compaction/index.js";
export {
	type InputOptions,
	type SelectOptions,
	type SessionUi,
	type UiChoice,
	nonInteractiveUi,
} from "./session-ui.js";
export { isProjectTrusted, projectTrust, setProjectTrust } from "../config/project-trust.js";
export { ProjectTrustGate } from "./project-trust-gate.js";
export { type PromptPoint, promptPoints, sessionTree } from "./store/session-tree.js";
export { type RewindResult, describeRewind } from "./session-rewind.js";
