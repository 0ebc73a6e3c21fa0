// Door of the session layer: AgentSession, its events and UI port, its store, commands, runs and compaction.
export type { AgentSessionOptions, RunOutcome, SessionListener } from "./agent-session-types.js";
export { AgentSession } from "./agent-session.js";
export {
	CommandRegistry,
	busyRefusal,
	hiddenCommandNotice,
	resolveCommand,
	sessionChoice,
	subagentsText,
	type CommandContext,
	type CommandDefinition,
	type CommandLookup,
	type CommandScope,
	type CommandSession,
	type ResolvedCommand,
	type SessionSummary,
} from "./commands/index.js";
export {
	SUMMARY_LEAD_IN,
	SUMMARY_SYSTEM_PROMPT,
	buildSessionContext,
	compactionThreshold,
	convertToLlmWithSummaries,
	createCompactionSummary,
	estimateTokens,
	isCompactionSummary,
	resolveCompactionSettings,
} from "./compaction/index.js";
export type { FileAction, FileChange, FileCheckpoints, FilesRestore, RestoreReport } from "./file-checkpoints.js";
export type { AfterLink, ApprovalHint, BeforeLink } from "./hook-chain.js";
export { ModelChoice, type ModelResolver, type ModelSelection } from "./model-choice.js";
export { NOTICE_MARK, plainNotice, stderrLine, stderrNotice } from "./notice-text.js";
export { ProjectTrustGate } from "./project-trust-gate.js";
export { ancestorsFromRoot, buildSystemPrompt, loadContextFiles, type PromptSkill } from "./prompt/index.js";
export { MAX_STOP_CONTINUATIONS, RunHooks, runOutcome, type PromptLink, type PromptVerdict, type StopLink, type StopQuestion } from "./run/index.js";
export type { ApprovalOutcome, BackgroundShellSummary, CompactionReason, SessionEvent, SubagentEvent, ToolCallState, ToolCallStatus } from "./session-events.js";
export { isSettledCall, toolCallTimes } from "./tool-calls.js";
export { describeRewind, type RewindResult } from "./session-rewind.js";
export {
	nonInteractiveUi,
	type ApprovalChoice,
	type ApprovalSubject,
	type InputOptions,
	type NoticeLevel,
	type SelectOptions,
	type SessionUi,
	type UiChoice,
} from "./session-ui.js";
export {
	SessionFileError,
	SessionInUseError,
	SessionStore,
	cwdFolderName,
	describeHolder,
	listAllSessions,
	listSessions,
	loadSessionFile,
	newestSessionFile,
	promptPoints,
	promptText,
	readSessionInfo,
	resolveSessionArgument,
	sessionChain,
	sessionDirFor,
	sessionFileText,
	sessionIdFromFileName,
	isSessionId,
	sessionTree,
	sessionsRoot,
	subagentSessionsDir,
	sumUsage,
	zeroUsage,
	type CompactionEntry,
	type PlanEntry,
	type TodoEntry,
	type TodoItem,
	type TodoStatus,
	TODO_STATUSES,
	MAX_TODO_ITEMS,
	todoListProblem,
	todoListText,
	type PromptPoint,
	type SessionEntry,
	type SessionHeader,
	type SessionInfo,
	type UsageTotals,
	subagentLink,
	addTotals,
	type SubagentLink,
} from "./store/index.js";
export type { UserCommandOptions, UserCommandResult, UserCommandRunner } from "./user-command.js";
