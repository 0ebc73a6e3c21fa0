// What an AgentSession is made from, and what it reports.
import type { AgentLoopConfig, AgentMessage, ToolExecutionMode, ToolDefinition } from "../engine/index.js";
import type { AssistantMessage, OutputSchema, StreamFn, ThinkingLevel } from "../ai/index.js";
import type { CompactionSettings } from "./compaction/index.js";
import type { ModelResolver, ModelSelection } from "./model-choice.js";
import type { SessionEntry, SessionStore } from "./store/index.js";
import type { RunOutcomeStatus, SessionEvent } from "./session-events.js";
import type { ToolSettings } from "./session-tools.js";
import type { PromptParts } from "./prompt/index.js";
import type { UserCommandRunner } from "./user-command.js";

export interface AgentSessionOptions {
	cwd: string;
	/** loom's home, for listing and resuming this directory's sessions. */
	home: string;
	/** The session's file (new or opened); its messages are where the conversation continues from. */
	store: SessionStore;
	/** Makes the store for newSession() (same home, same persistence). */
	createStore: () => SessionStore;
	models: ModelResolver;
	selection: ModelSelection;
	streamFn: StreamFn;
	/**
	 * What the system prompt says besides the tools (custom prompt, appended text, context files, date; the
	 * working directory is `cwd`). The prompt is built from these and the enabled tools, again whenever they change.
	 */
	prompt?: Omit<PromptParts, "cwd">;
	/** A finished system prompt instead, used as is whatever the tools (an embedder's own prompt). */
	systemPrompt?: string;
	/** The enabled tools' definitions (a plain AgentTool is one). Passed in by the caller: core never imports src/tools. */
	tools?: readonly ToolDefinition[];
	/**
	 * Tools not enabled whose earlier calls the conversation may hold (e.g. built-ins left out with --tools):
	 * compaction asks their definitions which files those calls touched.
	 */
	knownTools?: readonly ToolDefinition[];
	/** Per-tool settings by tool name (settings.json's `tools`); they apply to tools set later too. */
	toolSettings?: Readonly<Record<string, ToolSettings | undefined>>;
	thinkingLevel?: ThinkingLevel;
	toolExecution?: ToolExecutionMode;
	/** Retries of a failed model request before content arrived (the provider's policy; default 3). */
	maxRetries?: number;
	idleTimeoutMs?: number;
	/** Stop a run after this many model turns. */
	maxTurns?: number;
	/** Every model request of a prompt's run asks for a final answer valid against this schema (see StreamOptions). */
	outputSchema?: OutputSchema;
	/** settings.json's `compaction` (enabled, reserveTokens, keepRecentTokens); missing fields take the defaults. */
	compaction?: Partial<CompactionSettings>;
	/**
	 * Runs before every model call on the messages the model will see, after compaction's view (e.g. pruning).
	 * The file keeps every entry whatever the model sees.
	 */
	transformContext?: AgentLoopConfig["transformContext"];
	/**
	 * The model's view of a session's entries, used when a session opens or resumes. Default: the compacted
	 * view (the latest summary, the kept messages and every later one; every message without a compaction).
	 */
	buildContext?: (entries: readonly SessionEntry[]) => AgentMessage[];
	/**
	 * How the session is described while nothing is saved, in its creator's words (the command line names its
	 * flag); default "not saved".
	 */
	notSavedText?: string;
	/** Problems met assembling the session (a context file cut to its limit), reported with the load warnings. */
	warnings?: readonly string[];
	/** Runs the user's own shell commands (runUserCommand); without it the session runs none. */
	userCommands?: UserCommandRunner;
	/**
	 * Tools whose results mark the conversation as tainted besides those declaring untrustedOutput (the tools of
	 * MCP servers the user marked untrusted).
	 */
	untrustedTool?: (toolName: string) => boolean;
}

export type SessionListener = (event: SessionEvent) => void | Promise<void>;

/** How a prompt's run ended (print mode turns it into the exit code). */
export interface RunOutcome {
	status: RunOutcomeStatus;
	/** The run's last assistant message, if any. */
	message?: AssistantMessage;
	errorMessage?: string;
}
