// One session object for every interface: an Agent plus its model, tools, session file and retry policy.
// Print mode, JSON mode and the interactive screen subscribe to it; none of them drives the loop directly.
import { Agent } from "../agent.js";
import type { AgentMessage } from "../agent-types.js";
import { OrderedDelivery, callInOrder } from "../event-delivery.js";
import type { AssistantMessage, Message, Model, RetryInfo, ThinkingLevel } from "../llm-types.js";
import type { ModelListing } from "../llm/model-registry.js";
import { preloadModelSdk, streamModel } from "../llm/stream-model.js";
import type { ToolDefinition } from "../tool-definition.js";
import { type PromptOptions, userMessage } from "../messages.js";
import type { AgentSessionOptions, RunOutcome, SessionListener } from "./agent-session-types.js";
import { MessageQueue, type QueueKind } from "./message-queue.js";
import { ModelChoice, type ModelSelection } from "./model-choice.js";
import { convertToLlmWithSummaries } from "./compaction/summary-message.js";
import { CommandRegistry, hiddenCommandNotice } from "./command-registry.js";
import { announceExecution } from "./announce-execution.js";
import type { FileCheckpoints } from "./file-checkpoints.js";
import { type RewindResult, type RewindScope, restoreFiles } from "./session-rewind.js";
import { type PromptPoint, type SessionTree, promptPoints, sessionTree } from "./session-tree.js";
import { ToolHooks } from "./hook-chain.js";
import { type RunGate, RunGates } from "./run-gates.js";
import { RunState } from "./run-state.js";
import { type CommandSession, registerSessionCommands } from "./session-commands.js";
import { SessionCompaction } from "./session-compaction.js";
import { missingResult, repairConversation, unansweredToolCalls } from "./conversation-repair.js";
import { buildSessionContext } from "./session-context.js";
import type { SessionEntry, SessionHeader } from "./session-entries.js";
import type { ApprovalEvent, SessionEvent, SessionOpenReason } from "./session-events.js";
import type { ApprovalMode } from "./approval-mode.js";
import { listSessions, type SessionInfo } from "./session-list.js";
import { resolveSessionArgument } from "./session-resolve.js";
import { SessionStore } from "./session-store.js";
import { runOutcome } from "./run-outcome.js";
import { SessionTools } from "./session-tools.js";
import type { PromptParts } from "./system-prompt.js";
import { nonInteractiveUi, type SessionUi, UiSlot } from "./session-ui.js";
import { SettingsRecord } from "./settings-record.js";
import { addUsage, sumEntryUsage, type UsageTotals } from "./usage-totals.js";
import type { UserCommandOptions, UserCommandResult } from "./user-command.js";

export type { AgentSessionOptions, RunOutcome, SessionListener } from "./agent-session-types.js";

const ALREADY_RUNNING = "A run is already active: use steer() or followUp() to queue a message.";

export class AgentSession {
	readonly agent: Agent;
	readonly cwd: string;
	/**
	 * Ordered links run before and after every tool call (policy, then extensions, then final links),
	 * composed into the agent's beforeToolCall / afterToolCall. Assigning `agent.beforeToolCall` or
	 * `agent.afterToolCall` directly replaces the composed hook, and with it every link of that chain.
	 */
	readonly hooks = new ToolHooks();
	/**
	 * Slash commands this session offers (its built-ins; later extensions, prompt templates, skills). A command
	 * another of its name hides is reported once, as a warning through the session's ui.
	 */
	readonly commands = new CommandRegistry<CommandSession>(undefined, {
		onHidden: (hidden, by) => this.ui.notify("warning", hiddenCommandNotice(hidden, by)),
	});
	private readonly uiSlot = new UiSlot(nonInteractiveUi());
	/** Run by dispose(), newest first: what assemblies attached (extensions, servers, child processes). */
	private disposers: (() => void)[] = [];
	private readonly stopAgentEvents: () => void;
	private checkpoints: FileCheckpoints | undefined;
	/** What a prompt waits for before its run starts; see addRunGate(). */
	private readonly runGates = new RunGates();
	private store: SessionStore;
	private readonly options: AgentSessionOptions;
	private readonly choice: ModelChoice;
	/** Replaced, never changed in place: a delivery in progress keeps the list it started with. */
	private listeners: readonly SessionListener[] = [];
	private readonly queued = new MessageQueue();
	private readonly compaction: SessionCompaction;
	/** One ordered delivery for the agent's events and the session's own. */
	private readonly delivery = new OrderedDelivery<SessionEvent>((event) => this.notify(event));
	private usage: UsageTotals;
	private started = false;
	private opened: Promise<void> = Promise.resolve();
	/** The prompt being run, from runPrompt's call to its return: one prompt at a time. */
	private run: RunState | undefined;
	private readonly recorded: SettingsRecord;
	private readonly toolSet: SessionTools;
	/** What loading the current store's conversation found damaged and each request repairs. */
	private repairs: readonly string[] = [];
	/** Problems met assembling the session: those it was given, then those added (addLoadWarning). */
	private readonly assemblyWarnings: string[];
	private shownApprovalMode: ApprovalMode | undefined;
	private secretMask: ((text: string) => string) | undefined;

	constructor(options: AgentSessionOptions) {
		this.options = options;
		this.assemblyWarnings = [...(options.warnings ?? [])];
		this.cwd = options.cwd;
		this.store = options.store;
		this.choice = new ModelChoice(options.models, options.selection);
		const context = buildSessionContext(this.store.entries, options.buildContext);
		this.repairs = context.repairs;
		this.recorded = new SettingsRecord(context);
		this.usage = sumEntryUsage(this.store.allEntries);
		this.toolSet = new SessionTools({ ...options, prompt: { ...options.prompt, cwd: options.cwd } });
		this.agent = new Agent({
			initialState: {
				systemPrompt: this.toolSet.systemPrompt(),
				model: this.choice.model,
				thinkingLevel: options.thinkingLevel ?? context.thinkingLevel ?? "off",
				tools: this.agentTools(),
				messages: context.messages,
			},
			streamFn: options.streamFn,
			// Repaired last, on what the provider receives: no view of a damaged file sends a sequence it rejects.
			convertToLlm: (messages) => repairConversation(convertToLlmWithSummaries(messages)).messages as Message[],
			// Only for the provider chosen: a request still going to another one never gets this key.
			getApiKey: (provider) => (provider === this.choice.provider ? this.choice.apiKey : undefined),
			toolExecution: options.toolExecution ?? "parallel",
			beforeToolCall: this.hooks.beforeToolCall,
			afterToolCall: this.hooks.afterToolCall,
			transformContext: async (messages, signal) => {
				const view = await this.compaction.beforeModelCall(messages, signal);
				return options.transformContext ? options.transformContext(view, signal) : view;
			},
			shouldStopAfterTurn: options.maxTurns === undefined ? undefined : () => this.run?.countTurn() ?? false,
			streamOptions: {
				maxRetries: options.maxRetries,
				idleTimeoutMs: options.idleTimeoutMs,
				onRetry: (info) => this.onRetry(info),
			},
		});
		this.stopAgentEvents = this.agent.subscribe((event) => this.onAgentEvent(event));
		const host = {
			agent: this.agent,
			store: () => this.store,
			apiKey: () => this.choice.apiKey,
			emit: (e: SessionEvent) => this.emit(e),
			tools: () => this.toolSet.known,
		};
		this.compaction = new SessionCompaction(host, { ...options, settings: options.compaction });
		registerSessionCommands(this.commands);
	}

	/** How the session asks the user (dialogs, notices); non-interactive until an interface installs its own. */
	get ui(): SessionUi {
		return this.uiSlot.current;
	}
	setUi(ui: SessionUi): void {
		this.uiSlot.set(ui);
	}
	/**
	 * The session's ui as soon as it can ask the user: now, or once an interface installs one that can. Pending
	 * for good where nobody will be asked (print mode); for questions that wait for an answer (project trust).
	 */
	whenInteractive(): Promise<SessionUi> {
		return this.uiSlot.whenInteractive();
	}

	/** The approval mode the installed policy enforces, for interfaces to show; undefined without a policy. */
	get approvalMode(): ApprovalMode | undefined {
		return this.shownApprovalMode;
	}

	/**
	 * For the approval policy installed on this session (which owns the mode and the answers): delivers its
	 * event to every listener, in order with the rest, and keeps the mode it reports for `approvalMode`.
	 */
	reportApproval(event: ApprovalEvent): Promise<void> {
		if (event.type === "approval_mode_changed") this.shownApprovalMode = event.mode;
		return this.emit(event);
	}

	/**
	 * `text` with the secrets this session keeps from the model (API keys, secret-looking environment values)
	 * masked, for text from outside the tools that joins a prompt (the screen's `!!command` output). Unchanged
	 * until a policy installs a mask (setSecretMask); tool results are masked by the policy itself.
	 */
	maskSecrets(text: string): string {
		return this.secretMask ? this.secretMask(text) : text;
	}
	/** For the policy that owns the session's secrets; undefined takes the mask off. */
	setSecretMask(mask: ((text: string) => string) | undefined): void {
		this.secretMask = mask;
	}

	/**
	 * Runs a shell command the user typed (the screen's `!command`) in the session's directory, as the bash tool
	 * runs the model's: in a process group this session ends when disposed, output bounded and masked. Rejects
	 * when it cannot start (or when the session was assembled without a runner).
	 */
	runUserCommand(command: string, options: UserCommandOptions = {}): Promise<UserCommandResult> {
		const run = this.options.userCommands;
		if (!run) return Promise.reject(new Error("This session cannot run shell commands."));
		return run(command, options);
	}

	/** How the session restores files when it rewinds; undefined until something records checkpoints. */
	get fileCheckpoints(): FileCheckpoints | undefined {
		return this.checkpoints;
	}
	setFileCheckpoints(checkpoints: FileCheckpoints | undefined): void {
		this.checkpoints = checkpoints;
	}

	/**
	 * Adds a wait a prompt makes before its run starts, for tools still arriving (MCP servers starting): the run
	 * then starts with them. A gate bounds its own wait, and ends it when the signal aborts (the prompt was
	 * interrupted); a gate that fails is passed. Returns the function that removes the gate.
	 */
	addRunGate(gate: RunGate): () => void {
		return this.runGates.add(gate);
	}

	get sessionId(): string {
		return this.store.id;
	}
	/** The session file's header (id, creation time, directory, the session it was forked from). */
	get sessionHeader(): SessionHeader {
		return this.store.header;
	}
	/** The session file this one was forked from (`--fork`, /fork), if any. */
	get parentSessionFile(): string | undefined {
		return this.store.header.parentSession;
	}
	/** Undefined with --no-session. A new session's file appears on disk with its first message (see sessionSaved). */
	get sessionFile(): string | undefined {
		return this.store.file;
	}
	/** Whether the session file exists yet: a new session's appears with its first message, a fork's at once. */
	get sessionSaved(): boolean {
		return this.store.saved;
	}
	get model(): Model {
		return this.agent.state.model;
	}
	get provider(): string {
		return this.choice.provider;
	}
	get modelId(): string {
		return this.choice.modelId;
	}
	get thinkingLevel(): ThinkingLevel {
		return this.agent.state.thinkingLevel;
	}
	get messages(): readonly AgentMessage[] {
		return this.agent.state.messages;
	}
	get messageCount(): number {
		return this.agent.state.messages.length;
	}
	/** True while a prompt's run (its retries and compactions included) is going on. */
	get isStreaming(): boolean {
		return this.agent.state.isStreaming || this.run?.active === true;
	}
	/** Why the model cannot be used (missing key, unknown provider), or undefined. */
	get modelError(): string | undefined {
		return this.choice.error;
	}
	get queue(): { steering: string[]; followUp: string[] } {
		return this.queued.texts();
	}
	/** Token and cost totals of every assistant message in the session, resumed ones included. */
	get usageTotals(): UsageTotals {
		return { ...this.usage };
	}
	/** Tokens the next request will carry (last reported usage + estimates since), the model's window, and the percent. */
	get contextUsage(): { tokens: number; contextWindow: number; percent: number | undefined } {
		return this.compaction.usage();
	}
	/** The enabled tools' definitions, in the order the model gets them (settings applied). */
	get tools(): readonly ToolDefinition[] {
		return this.toolSet.definitions;
	}
	/** The session file's entries so far (with ids, for compaction's "first kept entry"). */
	get entries(): readonly SessionEntry[] {
		return this.store.entries;
	}
	/** Problems met assembling the session and loading its file (lines skipped, conversation repaired). */
	get loadWarnings(): readonly string[] {
		const where = this.store.file ? `${this.store.file}: ` : "";
		return [...this.assemblyWarnings, ...this.store.warnings, ...this.repairs.map((repair) => `${where}${repair}.`)];
	}

	/** Records a problem met assembling the session (a skill or prompt template skipped), for the interface to show. */
	addLoadWarning(text: string): void {
		this.assemblyWarnings.push(text);
	}

	/**
	 * Every agent event and the session's own, in order; a listener's promise is awaited before the next event.
	 * The first subscription opens the session: session_open follows after this tick, for every listener.
	 * `{ open: false }` listens without opening (an assembly's observers, which must not take session_open
	 * away from the interface that subscribes after them). Returns the function that removes this listener only.
	 */
	subscribe(listener: SessionListener, options: { open?: boolean } = {}): () => void {
		this.listeners = [...this.listeners, listener];
		if (options.open !== false) void this.start();
		return () => {
			const index = this.listeners.indexOf(listener);
			if (index >= 0) this.listeners = this.listeners.filter((_, i) => i !== index);
		};
	}

	/** Emits session_open, then session_error if the model cannot be used. Idempotent; subscribe() calls it. */
	async start(): Promise<void> {
		if (this.started) return this.opened;
		this.started = true;
		this.opened = Promise.resolve().then(() => this.announce(this.store.forkedNow ? "fork" : "open"));
		// The first prompt should not wait for the provider's SDK to load.
		if (this.options.streamFn === streamModel) void preloadModelSdk(this.model);
		return this.opened;
	}

	/**
	 * Runs a prompt to the end, then any messages queued meanwhile, and says how it ended. Rejects only when the
	 * run cannot start (no usable model or key, already running) with a message fit for the user; model and
	 * provider failures during the run end as an error assistant message and in the outcome.
	 * A run that starts is framed by run_start and run_end, whatever happens between the agent's runs.
	 */
	async runPrompt(text: string, options: PromptOptions = {}): Promise<RunOutcome> {
		if (this.run) throw new Error(ALREADY_RUNNING);
		const run = new RunState(this.options.maxTurns, (event) => this.emit(event));
		this.run = run;
		try {
			await this.start();
			// A prompt sent during /compact runs on the compacted conversation.
			await this.compaction.settled();
			if (!run.abortRequested) await this.runGates.pass();
			if (this.agent.state.isStreaming) throw new Error(ALREADY_RUNNING);
			if (!this.choice.ensure()) throw new Error(this.choice.error);
			// Stopped while it waited: nothing is sent.
			if (run.abortRequested) return run.outcome();
			return await this.runToEnd(run, userMessage(text, options.images, options.typed));
		} finally {
			if (this.run === run) this.run = undefined;
		}
	}

	/** The run from run_start to run_end: the prompt, then overflow recovery and queued messages. */
	private async runToEnd(run: RunState, message: AgentMessage): Promise<RunOutcome> {
		this.agent.setModel(this.choice.model);
		run.active = true;
		// Not awaited: an abort() from here on must reach the agent's run, and delivery keeps the order anyway.
		void this.emit({ type: "run_start" });
		this.recordSettings();
		this.compaction.beginRun();
		try {
			await this.agent.prompt(message);
			let retried = false;
			for (;;) {
				// A request the context window could not hold: compact, then retry the turn once.
				if (!retried && !run.abortRequested && (await this.compaction.recoverFromOverflow(run.lastAnswer))) retried = true;
				else if (!this.agent.hasQueuedMessages()) break;
				if (!run.mayContinue) break;
				await this.agent.continue();
			}
		} finally {
			run.active = false;
			// Cleared before run_end, so a listener may start the next prompt from it.
			this.run = undefined;
			const { status, errorMessage } = run.outcome();
			await this.emit({ type: "run_end", status, errorMessage });
		}
		return run.outcome();
	}

	/** runPrompt() for callers that need no outcome (the screen). */
	async prompt(text: string, options: PromptOptions = {}): Promise<void> {
		await this.runPrompt(text, options);
	}

	/** While running: delivered after the current tool batch. While idle (the run just ended): starts a run. */
	steer(text: string, options: Pick<PromptOptions, "typed"> = {}): void {
		this.enqueue("steering", text, options.typed);
	}

	/** While running: delivered when the agent would otherwise stop. While idle: starts a run. */
	followUp(text: string, options: Pick<PromptOptions, "typed"> = {}): void {
		this.enqueue("followUp", text, options.typed);
	}

	/** Takes every queued message back (e.g. into the editor after Esc). */
	clearQueue(): { steering: string[]; followUp: string[] } {
		const texts = this.queued.texts();
		this.agent.clearAllQueues();
		this.queued.clear();
		void this.emitQueue();
		return texts;
	}

	/** Stops the run (provider stream and its retries, tools) or a compaction, and resolves once it has settled. */
	async abort(): Promise<void> {
		if (this.run) this.run.abortRequested = true;
		this.runGates.abort();
		this.agent.abort();
		this.compaction.abort();
		await this.waitForIdle();
	}

	async waitForIdle(): Promise<void> {
		await this.agent.waitForIdle();
		await this.compaction.settled();
	}

	/**
	 * Summarises the conversation now, keeping only the latest turn's start (`/compact [instructions]`). How it
	 * ended arrives as compaction_end (a failure or abort writes nothing); rejects only when it cannot start.
	 */
	async compact(instructions?: string): Promise<void> {
		await this.start();
		if (this.isStreaming) throw new Error("Cannot compact during a run: wait for it to end or interrupt it first.");
		if (!this.choice.ensure()) throw new Error(this.choice.error);
		this.agent.setModel(this.choice.model);
		await this.compaction.compactNow(instructions);
	}

	/** Every model known (catalog and models.json) with whether its provider has a key now, the one in use counted. */
	availableModels(): ModelListing[] {
		return this.choice.availableModels();
	}

	/** Switches model ("provider/id", "id", or a selection) from the next request; throws a user-facing Error when unusable. */
	async setModel(ref: string | ModelSelection): Promise<void> {
		const model = this.choice.change(ref);
		this.agent.setModel(model);
		this.recordSettings();
		await this.emit({ type: "model_changed", provider: model.provider, model: model.id });
	}

	async setThinkingLevel(level: ThinkingLevel): Promise<void> {
		this.agent.setThinkingLevel(level);
		this.recordSettings();
		await this.emit({ type: "thinking_changed", level });
	}

	/**
	 * Enables exactly these tools and rebuilds the system prompt for them, from the next prompt on (a run in
	 * progress keeps the tools it started with). Throws when two tools share a name.
	 */
	setTools(tools: readonly ToolDefinition[]): void {
		this.toolSet.set(tools);
		this.agent.setTools(this.agentTools());
		this.agent.setSystemPrompt(this.toolSet.systemPrompt());
	}

	/**
	 * Changes what the system prompt says besides the tools (skills, appended text, context files) and rebuilds
	 * it, from the next prompt on. A finished `systemPrompt` given at construction stays as it is.
	 */
	setPromptParts(parts: Partial<Omit<PromptParts, "cwd">>): void {
		this.toolSet.setPromptParts(parts);
		this.agent.setSystemPrompt(this.toolSet.systemPrompt());
	}

	/** A fresh conversation in a new session file, same model and tools. */
	async newSession(): Promise<void> {
		await this.switchStore(this.options.createStore(), "new");
	}

	/** The entry the conversation is at (null: empty): where the next entry continues from. */
	get leafId(): string | null {
		return this.store.lastEntryId;
	}

	/** The prompts of the conversation, first to last (what /rewind and /fork offer). */
	prompts(): PromptPoint[] {
		return promptPoints(this.store.entries);
	}

	/** Which of these prompts have a checkpoint of the files to go back to. */
	async checkpointedPrompts(promptEntryIds: readonly string[]): Promise<ReadonlySet<string>> {
		return (await this.checkpoints?.checkpointed(promptEntryIds)) ?? new Set();
	}

	/** Every branch of the conversation, as a tree of its prompts. */
	tree(): SessionTree {
		return sessionTree(this.store.allEntries, this.store.lastEntryId);
	}

	/**
	 * Moves the conversation to `entryId` (null: its start), e.g. the end of another branch from tree(). Appends a
	 * branch entry (nothing is removed), rebuilds the conversation and emits session_open. Not during a run.
	 */
	async switchLeaf(entryId: string | null, reason: "branch" | "rewind" = "branch"): Promise<void> {
		this.refuseWhileBusy(reason === "rewind" ? "rewind" : "switch branches");
		this.store.branch(entryId);
		await this.loadConversation(reason);
	}

	/**
	 * Goes back to before a prompt of the conversation (its entry id, from prompts()): the files as they were before
	 * its run (asking before overwriting files changed after the agent), the conversation, or both. Not during a run.
	 */
	async rewind(promptEntryId: string, scope: RewindScope): Promise<RewindResult> {
		this.refuseWhileBusy("rewind");
		const prompt = this.prompts().find((point) => point.entryId === promptEntryId);
		if (!prompt) throw new Error(`Entry ${promptEntryId} is not a prompt of this conversation.`);
		const result: RewindResult = { promptText: prompt.text, conversation: false };
		if (scope.files) {
			const files = await restoreFiles(this.checkpoints, promptEntryId, this.ui);
			if (typeof files === "string") result.filesProblem = files;
			else result.files = files;
		}
		if (scope.conversation) {
			await this.switchLeaf(prompt.parentId, "rewind");
			result.conversation = true;
		}
		return result;
	}

	/**
	 * Continues in a new session file holding the conversation up to `entryId` (default: all of it; null: none),
	 * whose header names this one as its parent. This session's file stays as it is. Not during a run.
	 */
	async fork(entryId?: string | null): Promise<void> {
		this.refuseWhileBusy("fork");
		const at = entryId === undefined ? this.store.lastEntryId : entryId;
		const store = this.store.forkAt(at, { home: this.options.home, cwd: this.cwd, persist: this.store.file !== undefined });
		await this.switchStore(store, "fork");
	}

	/** Saved sessions of this directory, newest first. */
	listSessions(): SessionInfo[] {
		return listSessions(this.options.home, this.cwd);
	}

	/** Continues a saved session (path or id prefix) with its messages, and its model and thinking level when usable. */
	async resume(sessionFileOrId: string): Promise<void> {
		const file = resolveSessionArgument(sessionFileOrId, this.options.home, this.cwd);
		await this.switchStore(await SessionStore.open(file), "resume");
	}

	/**
	 * Runs `cleanup` when the session is disposed (an assembly's extensions, servers, the child processes of its
	 * tools); returns the function that forgets it.
	 */
	onDispose(cleanup: () => void): () => void {
		this.disposers = [cleanup, ...this.disposers];
		return () => {
			this.disposers = this.disposers.filter((other) => other !== cleanup);
		};
	}

	/**
	 * Aborts the run in progress, removes every listener, runs the cleanups given to onDispose() (newest first)
	 * and closes the session file; the session is unusable afterwards. Synchronous: an aborted run settles on
	 * its own, unheard. A tool still running (the process may be leaving mid-run, e.g. on a second Ctrl+C) first
	 * gets an interrupted result in the file, so the file stays complete.
	 */
	dispose(): void {
		if (this.run) this.run.abortRequested = true;
		this.runGates.abort();
		this.agent.abort();
		this.compaction.abort();
		this.listeners = [];
		this.stopAgentEvents();
		const disposers = this.disposers;
		this.disposers = [];
		for (const cleanup of disposers) {
			try {
				cleanup();
			} catch {
				// One failing cleanup must not keep the others (or the file) from being released.
			}
		}
		this.recordUnfinishedTools();
		this.store.close();
	}

	private async announce(reason: SessionOpenReason = "open"): Promise<void> {
		// A fork is written as it opens, copy and all, so quitting before its next message keeps it.
		let saveError: string | undefined;
		if (reason === "fork") {
			try {
				this.store.save();
			} catch (error) {
				saveError = `Could not write the session file ${this.store.file}: ${(error as Error).message}`;
			}
		}
		await this.emit({
			type: "session_open",
			reason,
			sessionId: this.store.id,
			file: this.store.file,
			saved: this.store.saved,
			...(this.store.header.parentSession === undefined ? {} : { parentSession: this.store.header.parentSession }),
			cwd: this.cwd,
			provider: this.provider,
			model: this.modelId,
			thinkingLevel: this.thinkingLevel,
			messageCount: this.messageCount,
		});
		if (saveError) await this.emit({ type: "session_error", message: saveError });
		if (this.choice.error) await this.emit({ type: "session_error", message: this.choice.error });
	}

	private async switchStore(store: SessionStore, reason: SessionOpenReason): Promise<void> {
		if (this.isStreaming) await this.abort();
		this.store.close();
		this.store = store;
		await this.loadConversation(reason);
	}

	/** Rebuilds the agent's conversation from the store (a new or opened file, or a moved leaf) and announces it. */
	private async loadConversation(reason: SessionOpenReason): Promise<void> {
		const store = this.store;
		this.agent.reset();
		this.queued.clear();
		const context = buildSessionContext(store.entries, this.options.buildContext);
		this.repairs = context.repairs;
		this.agent.replaceMessages(context.messages);
		this.usage = sumEntryUsage(store.allEntries);
		this.recorded.reset(context);
		if (context.model && !this.recorded.hasModel(this.provider, this.modelId)) {
			try {
				this.agent.setModel(this.choice.change({ provider: context.model.provider, modelId: context.model.modelId }));
			} catch {
				// The session's model cannot be used here (no key): carry on with the current one.
			}
		}
		if (context.thinkingLevel) this.agent.setThinkingLevel(context.thinkingLevel);
		await this.announce(reason);
	}

	private refuseWhileBusy(what: string): void {
		if (this.isStreaming) throw new Error(`Cannot ${what} while a run is active: wait for it to end or interrupt it first.`);
	}

	private enqueue(kind: QueueKind, text: string, typed?: string): void {
		if (!this.isStreaming) {
			this.prompt(text, { typed }).catch((error: Error) => this.emit({ type: "session_error", message: error.message }));
			return;
		}
		const message = userMessage(text, undefined, typed);
		this.queued.add(kind, message, text);
		if (kind === "steering") this.agent.steer(message);
		else this.agent.followUp(message);
		void this.emitQueue();
	}

	/** Synchronous for the common events (a stream's updates), so they cost no promise when the listeners are too. */
	private onAgentEvent(event: SessionEvent): Promise<void> | undefined {
		switch (event.type) {
			case "message_start":
				if (this.queued.delivered(event.message)) return this.emitQueue().then(() => this.emit(event));
				break;
			case "message_update":
				if (this.run?.retries.pending) return this.run.retries.finish(true).then(() => this.emit(event));
				break;
			case "message_end":
				this.persist(event.message);
				if (event.message.role === "assistant") {
					if (this.run) this.run.lastAnswer = event.message as AssistantMessage;
					this.usage = addUsage(this.usage, event.message);
					const stop = (event.message as AssistantMessage).stopReason;
					if (this.run?.retries.pending) return this.run.retries.finish(stop !== "error" && stop !== "aborted").then(() => this.emit(event));
				}
				break;
		}
		return this.delivery.deliver(event);
	}

	/** Appends at message_end. A write failure is reported and ends the run after this turn; it never crashes it. */
	private persist(message: AgentMessage): void {
		try {
			this.store.append({ type: "message", message });
		} catch (error) {
			const problem = `Could not write the session file ${this.store.file}: ${(error as Error).message}`;
			if (this.run) this.run.writeProblem = problem;
			void this.emit({ type: "session_error", message: problem });
		}
	}

	private recordUnfinishedTools(): void {
		const messages = this.store.entries.flatMap((entry) => (entry.type === "message" ? [entry.message] : []));
		for (const call of unansweredToolCalls(messages)) {
			this.persist(missingResult(call, INTERRUPTED_TOOL_TEXT));
		}
	}

	/** Writes model and thinking changes into the session file (held until a new session's first message). */
	private recordSettings(): void {
		try {
			const current = { provider: this.provider, modelId: this.modelId, usable: this.choice.isUsable, thinking: this.thinkingLevel };
			this.recorded.write(this.store, current);
		} catch (error) {
			void this.emit({ type: "session_error", message: `Could not write the session file ${this.store.file}: ${(error as Error).message}` });
		}
	}

	private onRetry(info: RetryInfo): void {
		if (this.run) this.run.retries.scheduled(info);
		else void this.emit({ type: "retry_scheduled", ...info });
	}

	private emitQueue(): Promise<void> {
		return this.emit({ type: "queue_changed", ...this.queued.texts() });
	}

	/** The enabled tools as the agent runs them: each call says when its execute() begins. */
	private agentTools(): ToolDefinition[] {
		return announceExecution(this.toolSet.definitions, (toolCallId, toolName) => void this.emit({ type: "tool_execution_running", toolCallId, toolName }));
	}

	/** Delivers one event to every listener, in order, after the events before it. */
	private emit(event: SessionEvent): Promise<void> {
		return this.delivery.deliver(event) ?? DELIVERED;
	}

	/** Every listener in subscription order, each awaited; synchronous until one returns a promise. */
	private notify(event: SessionEvent): Promise<void> | undefined {
		return callInOrder(this.listeners, (listener) => listener(event));
	}
}

const DELIVERED: Promise<void> = Promise.resolve();
const INTERRUPTED_TOOL_TEXT = "Interrupted: loom exited while this tool was running; its result is unknown.";
