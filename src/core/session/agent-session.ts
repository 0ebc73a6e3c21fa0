// One session object for every interface: an Agent plus its model, tools, session file and retry policy.
// Print mode, JSON mode and the interactive screen subscribe to it; none of them drives the loop directly.
import type { Agent, AgentMessage, ToolDefinition } from "../engine/index.js";
import type { Model, ThinkingLevel, ModelListing, PromptOptions } from "../ai/index.js";
import { preloadModelSdk, streamModel } from "../ai/index.js";
import type { AgentSessionOptions, RunOutcome, SessionListener } from "./agent-session-types.js";
import { announceExecution, createSessionAgent, RunHooks, SessionCompaction, SessionRunner } from "./run/index.js";
import {
	CommandRegistry,
	busyRefusal,
	hiddenCommandNotice,
	type CommandSession,
	registerSessionCommands,
} from "./commands/index.js";
import { ToolHooks } from "./hook-chain.js";
import { ModelChoice, type ModelSelection } from "./model-choice.js";
import type { SessionEntry, SessionHeader, SessionInfo, PromptPoint, SessionTree, UsageTotals, TodoItem } from "./store/index.js";
import { latestTodos, todoListProblem } from "./store/index.js";
import type { SessionEvent } from "./session-events.js";
import { SessionNavigation } from "./session-navigation.js";
import { SessionPlugs } from "./session-plugs.js";
import { SessionRecord } from "./session-record.js";
import type { FilesRestore } from "./file-checkpoints.js";
import type { RewindResult, RewindScope } from "./session-rewind.js";
import { SessionTools } from "./session-tools.js";
import { ToolCallStates } from "./tool-calls.js";
import type { ToolCallState } from "./session-events.js";
import type { PromptParts } from "./prompt/index.js";

export type { AgentSessionOptions, RunOutcome, SessionListener } from "./agent-session-types.js";

export class AgentSession extends SessionPlugs {
	readonly agent: Agent;
	readonly cwd: string;
	/**
	 * Ordered links run before and after every tool call (policy, then extensions, then final links),
	 * composed into the agent's beforeToolCall / afterToolCall. Assigning `agent.beforeToolCall` or
	 * `agent.afterToolCall` directly replaces the composed hook, and with it every link of that chain.
	 */
	readonly hooks = new ToolHooks(
		(text) => this.ui.notify("error", text),
		(toolCallId) => this.callStates.markBlocked(toolCallId),
	);
	/** Links a prompt's run asks: may a prompt run and what it carries, may the agent stop (settings hooks). */
	readonly runHooks = new RunHooks();
	/**
	 * Slash commands this session offers (its built-ins; later extensions, prompt templates, skills). A command
	 * another of its name hides is reported once, as a warning through the session's ui.
	 */
	readonly commands = new CommandRegistry<CommandSession>(undefined, {
		onHidden: (hidden, by) => this.ui.notify("warning", hiddenCommandNotice(hidden, by)),
	});
	private readonly stopAgentEvents: () => void;
	private readonly options: AgentSessionOptions;
	private readonly choice: ModelChoice;
	private readonly record: SessionRecord;
	private readonly compaction: SessionCompaction;
	private readonly runner: SessionRunner;
	private readonly navigation: SessionNavigation;
	private started = false;
	private opened: Promise<void> = Promise.resolve();
	private readonly toolSet: SessionTools;
	/** One state per tool call of the latest batch, reduced from every event as it is emitted. */
	private readonly callStates: ToolCallStates;
	/** Problems met assembling the session: those it was given, then those added (addLoadWarning). */
	private readonly assemblyWarnings: string[];
	private readonly requestListeners = new Set<() => void>();
	private answering: Promise<void> | undefined;

	constructor(options: AgentSessionOptions) {
		super(options.userCommands);
		this.options = options;
		this.assemblyWarnings = [...(options.warnings ?? [])];
		this.cwd = options.cwd;
		this.choice = new ModelChoice(options.models, options.selection);
		this.record = new SessionRecord(options.store, options.buildContext);
		const context = this.record.opened;
		this.toolSet = new SessionTools({ ...options, prompt: { ...options.prompt, cwd: options.cwd } });
		this.callStates = new ToolCallStates(() => this.toolSet.known);
		this.listeners.reduceWith((event) => this.callStates.reduce(event));
		this.agent = createSessionAgent({
			options,
			choice: this.choice,
			hooks: this.hooks,
			systemPrompt: this.toolSet.systemPrompt(),
			tools: this.agentTools(),
			messages: context.messages,
			thinkingLevel: options.thinkingLevel ?? context.thinkingLevel ?? "off",
			compactedView: (messages, signal) => this.compaction.beforeModelCall(messages, signal),
			countTurn: () => this.runner.countTurn(),
			onRetry: (info) => this.runner.onRetry(info),
			onRequest: () => {
				for (const listener of [...this.requestListeners]) listener();
			},
		});
		this.stopAgentEvents = this.agent.subscribe((event) => this.onAgentEvent(event));
		const emit = (event: SessionEvent) => this.listeners.emit(event);
		const host = { agent: this.agent, store: () => this.record.store, apiKey: () => this.choice.currentApiKey(), emit, tools: () => this.toolSet.known };
		this.compaction = new SessionCompaction(host, { ...options, settings: options.compaction });
		this.runner = new SessionRunner({
			agent: this.agent,
			choice: this.choice,
			compaction: this.compaction,
			maxTurns: options.maxTurns,
			gates: this.runGates,
			runHooks: this.runHooks,
			emit,
			start: () => this.start(),
			recordSettings: () => this.recordSettings(),
		});
		this.navigation = new SessionNavigation({
			options,
			agent: this.agent,
			choice: this.choice,
			record: this.record,
			emit,
			checkpoints: () => this.fileCheckpoints,
			ui: () => this.ui,
			busy: () => this.isStreaming,
			abort: () => this.abort(),
			forgetQueue: () => this.runner.forgetQueue(),
		});
		registerSessionCommands(this.commands);
	}

	get sessionId(): string {
		return this.record.store.id;
	}
	/** The session file's header (id, creation time, directory, the session it was forked from). */
	get sessionHeader(): SessionHeader {
		return this.record.store.header;
	}
	/** The session file this one was forked from (`--fork`, /fork), if any. */
	get parentSessionFile(): string | undefined {
		return this.record.store.header.parentSession;
	}
	/** Undefined with --no-session. A new session's file appears on disk with its first message (see sessionSaved). */
	get sessionFile(): string | undefined {
		return this.record.store.file;
	}
	/** How the session is described while it keeps no file (see AgentSessionOptions). */
	get notSavedText(): string | undefined {
		return this.options.notSavedText;
	}
	/** Whether the session file exists yet: a new session's appears with its first message, a fork's at once. */
	get sessionSaved(): boolean {
		return this.record.store.saved;
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
	/** The login requests are signed in with ("ChatGPT login"), or undefined for an API key. */
	get credential(): string | undefined {
		return this.choice.credential;
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
		return this.agent.state.isStreaming || this.runner.active;
	}
	/** Why the model cannot be used (missing key, unknown provider), or undefined. */
	get modelError(): string | undefined {
		return this.choice.error;
	}
	get queue(): { steering: string[]; followUp: string[] } {
		return this.runner.queue;
	}
	/** Token and cost totals of every assistant message in the session, resumed ones included. */
	get usageTotals(): UsageTotals {
		return { ...this.record.usage };
	}
	/** Tokens the next request will carry (last reported usage + estimates since), the model's window, and the percent. */
	get contextUsage(): { tokens: number; contextWindow: number; percent: number | undefined } {
		return this.compaction.usage();
	}
	/** The enabled tools' definitions, in the order the model gets them (settings applied). */
	get tools(): readonly ToolDefinition[] {
		return this.toolSet.definitions;
	}
	/**
	 * The latest batch's tool calls by id, in the model's order: each one's status, timings, description and
	 * results. Up to date when a listener hears an event; each change also arrives as tool_call_changed.
	 */
	get toolCalls(): ReadonlyMap<string, ToolCallState> {
		return this.callStates.all;
	}
	/** The session file's entries so far (with ids, for compaction's "first kept entry"). */
	get entries(): readonly SessionEntry[] {
		return this.record.store.entries;
	}
	/** The conversation's todo list now (the latest todo entry on its chain); empty without one. */
	get todos(): TodoItem[] {
		return latestTodos(this.record.store.entries);
	}

	/**
	 * Replaces the todo list: validated (at most one item in progress; throws an Error saying what is wrong),
	 * appended to the session file as a todo entry, announced as todo_changed.
	 */
	async setTodos(items: readonly TodoItem[]): Promise<void> {
		const list = items.map((item) => ({ text: item.text.trim(), status: item.status }));
		const problem = todoListProblem(list);
		if (problem) throw new Error(problem);
		this.appendEntry({ type: "todo", items: list });
		await this.listeners.emit({ type: "todo_changed", items: list.map((item) => ({ ...item })) });
	}

	/** Records a plan the user approved (plan mode) as a plan entry and announces it; its steps become the todo list separately. */
	async recordPlan(plan: string): Promise<void> {
		this.appendEntry({ type: "plan", plan });
		await this.listeners.emit({ type: "plan_approved", plan });
	}

	/**
	 * What brought text written by others (a fetched page, an untrusted MCP server's result) into the conversation;
	 * undefined when nothing did or the user cleared it. Kept in the session file, so a resume keeps it. While set,
	 * the approval policy asks before calls that could carry out what such text asks for.
	 */
	get taint(): string | undefined {
		return this.record.taint;
	}

	/** Marks the conversation (a source) or clears the mark (undefined), in the file, then emits taint_changed. */
	async setTaint(source: string | undefined): Promise<void> {
		if (source === this.record.taint) return;
		const problem = this.record.writeTaint(source);
		if (problem) await this.listeners.emit({ type: "session_error", message: problem });
		await this.listeners.emit({ type: "taint_changed", ...(source === undefined ? {} : { source }) });
	}

	/** Problems met assembling the session and loading its file (lines skipped, conversation repaired). */
	get loadWarnings(): readonly string[] {
		return [...this.assemblyWarnings, ...this.record.warnings];
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
		const remove = this.listeners.add(listener);
		if (options.open !== false) void this.start();
		return remove;
	}

	/**
	 * Tells `listener` each time one of the runs' model requests has been written to the connection (each attempt:
	 * retries too), as it happens, outside the event stream. Returns the function that removes it.
	 */
	onModelRequest(listener: () => void): () => void {
		this.requestListeners.add(listener);
		return () => this.requestListeners.delete(listener);
	}

	/**
	 * Settles once the session's first answer has begun (its request is out) or a run ended without one: the moment
	 * for loads that would otherwise hold that request back on the main thread.
	 */
	firstAnswer(): Promise<void> {
		this.answering ??= new Promise((resolve) => {
			const stop = this.subscribe(
				(event) => {
					if (event.type !== "message_update" && event.type !== "run_end") return;
					stop();
					resolve();
				},
				{ open: false },
			);
		});
		return this.answering;
	}

	/** Emits session_open, then session_error if the model cannot be used. Idempotent; subscribe() calls it. */
	async start(): Promise<void> {
		if (this.started) return this.opened;
		this.started = true;
		this.opened = Promise.resolve().then(() => this.navigation.announce(this.record.store.forkedNow ? "fork" : "open"));
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
	runPrompt(text: string, options: PromptOptions = {}): Promise<RunOutcome> {
		return this.runner.runPrompt(text, options);
	}

	/** runPrompt() for callers that need no outcome (the screen). */
	async prompt(text: string, options: PromptOptions = {}): Promise<void> {
		await this.runPrompt(text, options);
	}

	/** While running: delivered after the current tool batch. While idle (the run just ended): starts a run. */
	steer(text: string, options: Pick<PromptOptions, "typed"> = {}): void {
		this.runner.enqueue("steering", text, options.typed, !this.isStreaming);
	}

	/** While running: delivered when the agent would otherwise stop. While idle: starts a run. */
	followUp(text: string, options: Pick<PromptOptions, "typed"> = {}): void {
		this.runner.enqueue("followUp", text, options.typed, !this.isStreaming);
	}

	/** Takes every queued message back (e.g. into the editor after Esc). */
	clearQueue(): { steering: string[]; followUp: string[] } {
		return this.runner.clearQueue();
	}

	/** Stops the run (provider stream and its retries, tools) or a compaction, and resolves once it has settled. */
	async abort(): Promise<void> {
		this.runner.abort();
		await this.waitForIdle();
	}

	/**
	 * Something the run depends on broke (an extension's handler that can never settle): the run ends after this
	 * turn (its tool calls finish; the model is not asked again) as an error with `problem` as its message, also
	 * when it is aborted meanwhile. False: no run was in progress.
	 */
	failRun(problem: string): boolean {
		return this.runner.fail(problem);
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
		if (this.isStreaming) throw new Error(busyRefusal("compact", "Wait for it to end or interrupt it first."));
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
		const credential = this.choice.credential;
		await this.listeners.emit({ type: "model_changed", provider: model.provider, model: model.id, ...(credential === undefined ? {} : { credential }) });
	}

	async setThinkingLevel(level: ThinkingLevel): Promise<void> {
		this.agent.setThinkingLevel(level);
		this.recordSettings();
		await this.listeners.emit({ type: "thinking_changed", level });
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
	newSession(): Promise<void> {
		return this.navigation.newSession();
	}

	/** The entry the conversation is at (null: empty): where the next entry continues from. */
	get leafId(): string | null {
		return this.record.store.lastEntryId;
	}

	/** The prompts of the conversation, first to last (what /rewind and /fork offer). */
	prompts(): PromptPoint[] {
		return this.navigation.prompts();
	}

	/** Which of these prompts have a checkpoint of the files to go back to. */
	checkpointedPrompts(promptEntryIds: readonly string[]): Promise<ReadonlySet<string>> {
		return this.navigation.checkpointedPrompts(promptEntryIds);
	}

	/** Every branch of the conversation, as a tree of its prompts. */
	tree(): SessionTree {
		return this.navigation.tree();
	}

	/**
	 * Moves the conversation to `entryId` (null: its start), e.g. the end of another branch from tree(). Appends a
	 * branch entry (nothing is removed), rebuilds the conversation and emits session_open. Not during a run.
	 */
	switchLeaf(entryId: string | null, reason: "branch" | "rewind" = "branch"): Promise<void> {
		return this.navigation.switchLeaf(entryId, reason);
	}

	/**
	 * Goes back to before a prompt of the conversation (its entry id, from prompts()): the files as they were before
	 * its run (asking before overwriting files changed after the agent), the conversation, or both. Not during a run.
	 */
	rewind(promptEntryId: string, scope: RewindScope, prepared?: FilesRestore): Promise<RewindResult> {
		return this.navigation.rewind(promptEntryId, scope, prepared);
	}

	/**
	 * What rewinding the files to before a prompt would do, worked out and not done (a string says why it cannot be);
	 * rewind() applies exactly this restore when handed it. Not during a run.
	 */
	previewRewind(promptEntryId: string): Promise<FilesRestore | string> {
		return this.navigation.previewRewind(promptEntryId);
	}

	/**
	 * Continues in a new session file holding the conversation up to `entryId` (default: all of it; null: none),
	 * whose header names this one as its parent. This session's file stays as it is. Not during a run.
	 */
	fork(entryId?: string | null): Promise<void> {
		return this.navigation.fork(entryId);
	}

	/** Saved sessions of this directory, newest first. */
	listSessions(): SessionInfo[] {
		return this.navigation.listSessions();
	}

	/** Continues a saved session (path or id prefix) with its messages, and its model and thinking level when usable. */
	resume(sessionFileOrId: string): Promise<void> {
		return this.navigation.resume(sessionFileOrId);
	}

	/**
	 * Aborts the run in progress, removes every listener, runs the cleanups given to onDispose() (newest first)
	 * and closes the session file; the session is unusable afterwards. Synchronous: an aborted run settles on
	 * its own, unheard. A tool still running (the process may be leaving mid-run, e.g. on a second Ctrl+C) first
	 * gets an interrupted result in the file, so the file stays complete.
	 */
	dispose(): void {
		this.runner.abort();
		this.listeners.clear();
		this.stopAgentEvents();
		this.runDisposers();
		this.record.finish();
	}

	/** Synchronous for the common events (a stream's updates), so they cost no promise when the listeners are too. */
	private onAgentEvent(event: SessionEvent): Promise<void> | undefined {
		if (event.type === "message_end") {
			this.persist(event.message);
			// The provider's own search put pages' text into the model's context.
			if (event.message.role === "assistant" && event.message.search && this.record.taint === undefined) {
				const taint = this.setTaint("web_search");
				const before = this.runner.before(event);
				return taint.then(() => before).then(() => this.listeners.emit(event));
			}
		}
		if (event.type === "tool_execution_end" && !event.isError && this.record.taint === undefined && this.untrusted(event.toolName)) {
			const taint = this.setTaint(event.toolName);
			const before = this.runner.before(event);
			return taint.then(() => before).then(() => this.listeners.emit(event));
		}
		const before = this.runner.before(event);
		return before ? before.then(() => this.listeners.emit(event)) : this.listeners.deliver(event);
	}

	/** Whether what the tool returns was written by others (see ToolPresentation.untrustedOutput). */
	private untrusted(toolName: string): boolean {
		const tool = this.toolSet.known.find((known) => known.name === toolName) ?? this.tools.find((known) => known.name === toolName);
		return tool?.untrustedOutput === true || this.options.untrustedTool?.(toolName) === true;
	}

	/** Appends at message_end. A write failure is reported and ends the run after this turn; it never crashes it. */
	private persist(message: AgentMessage): void {
		const problem = this.record.append(message);
		if (!problem) return;
		this.runner.fail(problem);
		void this.listeners.emit({ type: "session_error", message: problem });
	}

	/** Appends a todo or plan entry; a write failure is reported like a message's. */
	private appendEntry(payload: { type: "todo"; items: TodoItem[] } | { type: "plan"; plan: string }): void {
		const problem = this.record.appendEntry(payload);
		if (problem) void this.listeners.emit({ type: "session_error", message: problem });
	}

	/** Writes model and thinking changes into the session file (held until a new session's first message). */
	private recordSettings(): void {
		const current = { provider: this.provider, modelId: this.modelId, usable: this.choice.isUsable, thinking: this.thinkingLevel };
		const problem = this.record.writeSettings(current);
		if (problem) void this.listeners.emit({ type: "session_error", message: problem });
	}

	/** The enabled tools as the agent runs them: each call says when its execute() begins. */
	private agentTools(): ToolDefinition[] {
		return announceExecution(this.toolSet.definitions, (toolCallId, toolName) => void this.listeners.emit({ type: "tool_execution_running", toolCallId, toolName }));
	}
}
