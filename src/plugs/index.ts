// Door of the plugs: what a session is assembled from besides the built-in tools, each installed by one function.
export { type Checkpointer, installCheckpoints, linkCheckpointBefore, pruneCheckpoints } from "./checkpoints/index.js";
export { exportSessionFile, installExport } from "./export/index.js";
export {
	NamedExtensionsError,
	installExtensions,
	type ExtensionAPI,
	type ExtensionCommand,
	type ExtensionContext,
	type ExtensionFactory,
	type ExtensionFailure,
	type ExtensionsReport,
	type KnownToolInputs,
	type SendMessageOptions,
	type SessionEventHandler,
	type SessionEventType,
	type ToolCallEvent,
	type ToolCallEventResult,
	type ToolCallHandler,
	type ToolResultEvent,
	type ToolResultEventResult,
	type ToolResultHandler,
} from "./extensions/index.js";
export { installHooks, listHooks, readSettingsHooks, replayHooks, type SettingsHook } from "./hooks/index.js";
export { LanguageServers, installLsp, runLspQuery, type LanguageServerSetting, type LspQuery, type LspSettings } from "./lsp/index.js";
export { McpConfigError, configuredMcpCredentials, installMcp, runMcpLogin, serverToolPrefix } from "./mcp/index.js";
export { PLAN_MODE_NOTE, PRESENT_PLAN_TOOL, installPlanMode, planSteps, presentedPlan } from "./plan/index.js";
export { RuleError, configuredKeys, installApprovalPolicy, preloadShellParser, sandboxPathRules, secretMask } from "./policy/index.js";
export { agentDirs, agentFiles, installResources, loadAgents, type AgentDefinition } from "./resources/index.js";
export { Sandbox, hostAllowed, installSandbox, type SandboxOptions } from "./sandbox/index.js";
export {
	BRANCH_PREFIX,
	GIT_IDENTITY,
	addWorktree,
	discardBranch,
	git,
	gitTop,
	loomBranches,
	mergeBranch,
	removeWorktree,
	startBranchWorktree,
	type BranchWorktree,
} from "./worktrees/index.js";
