// One session object for every interface: an Agent plus its model, tools, session file and retry policy.
// Print mode, JSON mode and the interactive screen subscribe to it; none of them drives the loop directly.
import { Agent } from "../agent.js";
import type { AgentLoopConfig, AgentMessage, AgentTool, ToolExecutionMode } from "../agent-types.js";
import type { AssistantMessage, ImageContent, Model, RetryInfo, StreamFn, ThinkingLevel, UserMessage } from "../llm-types.js";
import { buildSessionContext } from "./session-context.js";
import type { SessionEvent, SessionOwnEvent } from "./session-events.js";
import type { SessionStore } from "./session-store.js";
import { type UsageTotals, addUsage, lastContextTokens, sumUsage } from "./usage-totals.js";

/** What the user asked for; the resolver turns it into a model and a key. */
export interface ModelSelection {
	provider?: string;
	modelId?: string;
	baseUrl?: string;
	apiKey?: string;
}

/** The provider registry, as far as a session needs it (src/core/llm satisfies this). */
export interface ModelResolver {
	/** Throws an Error whose message tells the user what to set when the model cannot be used. */
	resolve(selection: ModelSelection): { model: Model; apiKey?: string };
}

export interface AgentSessionOptions {
	cwd: string;
	/** The session's file (new or opened); its messages are where the conversation continues from. */
	store: SessionStore;
	/** Makes the store for newSession() (same home, same persistence). */
	createStore: () => SessionStore;
	models: ModelResolver;
	selection: ModelSelection;
	streamFn: StreamFn;
	systemPrompt: string;
	/** Passed in by the caller (core never imports src/tools). */
	tools?: AgentTool<any>[];
	thinkingLevel?: ThinkingLevel;
	toolExecution?: ToolExecutionMode;
	/** Retries of a failed model request before content arrived (the provider's policy; default 3). */
	maxRetries?: number;
	idleTimeoutMs?: number;
	/** Stop a run after this many model turns. */
	maxTurns?: number;
	/**
	 * Runs before every model call on the messages the model will see. Compaction (issue 7) plugs in here:
	 * it may replace older messages by a summary; the session file keeps every entry.
	 */
	transformContext?: AgentLoopConfig["transformContext"];
}

export type SessionListener = (event: SessionEvent) => void | Promise<void>;

/** How a prompt's run ended, for print mode's exit code. */
export interface RunOutcome {
	status: "done" | "error" | "aborted";
	/** The last assistant message of the run, if any. */
	message?: AssistantMessage;
	errorMessage?: string;
}

interface Queued {
	message: AgentMessage;
	text: string;
}

export class AgentSession {
	readonly agent: Agent;
	readonly cwd: string;
	private store: SessionStore;
	private readonly options: AgentSessionOptions;
	private readonly listeners: SessionListener[] = [];
	private dispatch: Promise<void> = Promise.resolve();
	private selection: ModelSelection;
	private resolved: { model: Model; apiKey?: string } | undefined;
	private modelProblem: string | undefined;
	private usage: UsageTotals;
	private queued: { steering: Queued[]; followUp: Queued[] } = { steering: [], followUp: [] };
	private pendingRetry: number | undefined;
	private turnsThisRun = 0;
	private started = false;
	private abortRequested = false;
	private runProblem: string | undefined;
	/** What the session file last recorded, so a change is written once. */
	private recorded: { model?: string; thinking?: ThinkingLevel } = {};

	constructor(options: AgentSessionOptions) {
		this.options = options;
		this.cwd = options.cwd;
		this.store = options.store;
		this.selection = { ...options.selection };
		const context = buildSessionContext(this.store.entries);
		this.recorded = { model: context.model && `${context.model.provider}/${context.model.modelId}`, thinking: context.thinkingLevel };
		this.tryResolve(this.selection);
		this.usage = sumUsage(context.messages);
		this.agent = new Agent({
			initialState: {
				systemPrompt: options.systemPrompt,
				model: this.resolved?.model ?? placeholderModel(this.selection),
				thinkingLevel: options.thinkingLevel ?? context.thinkingLevel ?? "off",
				tools: options.tools ?? [],
				messages: context.messages,
			},
			streamFn: options.streamFn,
			getApiKey: () => this.resolved?.apiKey,
			toolExecution: options.toolExecution ?? "parallel",
			transformContext: options.transformContext,
			shouldStopAfterTurn: options.maxTurns === undefined ? undefined : () => ++this.turnsThisRun >= options.maxTurns!,
			streamOptions: {
				maxRetries: options.maxRetries,
				idleTimeoutMs: options.idleTimeoutMs,
				onRetry: (info) => this.onRetry(info),
			},
		});
		this.agent.subscribe((event) => this.onAgentEvent(event));
	}

	// ---- what the session is -------------------------------------------------------------------------

	get sessionId(): string {
		return this.store.id;
	}
	/** Undefined with --no-session. The file appears on disk with the first message. */
	get sessionFile(): string | undefined {
		return this.store.file;
	}
	get model(): Model {
		return this.agent.state.model;
	}
	get provider(): string {
		return this.resolved?.model.provider ?? this.selection.provider ?? "unknown";
	}
	get modelId(): string {
		return this.resolved?.model.id ?? this.selection.modelId ?? "unknown";
	}
	get thinkingLevel(): ThinkingLevel {
		return this.agent.state.thinkingLevel;
	}
	get messages(): readonly AgentMessage[] {
		return this.agent.state.messages;
	}
	get isStreaming(): boolean {
		return this.agent.state.isStreaming;
	}
	/** Why the model cannot be used (missing key, unknown provider), or undefined. */
	get modelError(): string | undefined {
		return this.modelProblem;
	}
	get queue(): { steering: string[]; followUp: string[] } {
		return { steering: this.queued.steering.map((q) => q.text), followUp: this.queued.followUp.map((q) => q.text) };
	}
	/** Token and cost totals of every assistant message in the session, resumed ones included. */
	getUsageTotals(): UsageTotals {
		return { ...this.usage };
	}
	/** Tokens of the model's context after the last response, and the model's window. */
	getContextUsage(): { tokens?: number; contextWindow: number } {
		return { tokens: lastContextTokens(this.agent.state.messages), contextWindow: this.model.contextWindow };
	}
	/** Problems met loading the session file (skipped lines). */
	get loadWarnings(): readonly string[] {
		return this.store.warnings;
	}

	// ---- events --------------------------------------------------------------------------------------

	subscribe(listener: SessionListener): () => void {
		this.listeners.push(listener);
		return () => {
			const index = this.listeners.indexOf(listener);
			if (index >= 0) this.listeners.splice(index, 1);
		};
	}

	/** Emits session_open (and session_error when the model cannot be used). Subscribe first. Idempotent. */
	async start(): Promise<void> {
		if (this.started) return;
		this.started = true;
		await this.announce();
	}

	// ---- running ------------------------------------------------------------------------------------

	/**
	 * Runs a prompt to the end, then any messages queued meanwhile. Never rejects for model or provider
	 * failures: those end as events (session_error, an error assistant message) and in the outcome.
	 */
	async prompt(text: string, options: { images?: ImageContent[] } = {}): Promise<RunOutcome> {
		await this.start();
		if (this.isStreaming) throw new Error("A run is already active: use steer() or followUp() to queue a message.");
		this.abortRequested = false;
		this.runProblem = undefined;
		if (!this.ensureModel()) {
			await this.emit({ type: "session_error", message: this.modelProblem! });
			return { status: "error", errorMessage: this.modelProblem };
		}
		this.recordSettings();
		const firstOfRun = this.agent.state.messages.length;
		await this.agent.prompt(userMessage(text, options.images));
		while (this.agent.hasQueuedMessages() && !this.abortRequested && !this.runProblem) {
			await this.agent.continue();
		}
		return this.outcome(firstOfRun);
	}

	/** While running: delivered after the current tool batch. While idle: runs as a prompt. */
	async steer(text: string): Promise<void> {
		if (!this.isStreaming) {
			await this.prompt(text);
			return;
		}
		const message = userMessage(text);
		this.queued.steering.push({ message, text });
		this.agent.steer(message);
		await this.emitQueue();
	}

	/** While running: delivered when the agent would otherwise stop. While idle: runs as a prompt. */
	async followUp(text: string): Promise<void> {
		if (!this.isStreaming) {
			await this.prompt(text);
			return;
		}
		const message = userMessage(text);
		this.queued.followUp.push({ message, text });
		this.agent.followUp(message);
		await this.emitQueue();
	}

	/** Takes every queued message back (e.g. into the editor after Esc). */
	async clearQueue(): Promise<{ steering: string[]; followUp: string[] }> {
		const texts = this.queue;
		this.agent.clearAllQueues();
		this.queued = { steering: [], followUp: [] };
		await this.emitQueue();
		return texts;
	}

	/** Stops the run (provider stream, tools, retry waits) and resolves once it has settled. */
	async abort(): Promise<void> {
		this.abortRequested = true;
		this.agent.abort();
		await this.agent.waitForIdle();
	}

	waitForIdle(): Promise<void> {
		return this.agent.waitForIdle();
	}

	// ---- changing the session -----------------------------------------------------------------------

	/** Switches model ("provider/id", "id", or a selection); applies from the next model request. Throws when unusable. */
	async setModel(ref: string | ModelSelection): Promise<void> {
		const selection = typeof ref === "string" ? this.selectionFromRef(ref) : ref;
		const resolved = this.options.models.resolve(selection);
		this.selection = selection;
		this.resolved = resolved;
		this.modelProblem = undefined;
		this.agent.setModel(resolved.model);
		this.recordSettings();
		await this.emit({ type: "model_changed", provider: resolved.model.provider, model: resolved.model.id });
	}

	async setThinkingLevel(level: ThinkingLevel): Promise<void> {
		this.agent.setThinkingLevel(level);
		this.recordSettings();
		await this.emit({ type: "thinking_changed", level });
	}

	/** Starts a fresh conversation in a new session file, with the same model and tools. */
	async newSession(): Promise<void> {
		if (this.isStreaming) await this.abort();
		this.store.close();
		this.store = this.options.createStore();
		this.agent.reset();
		this.queued = { steering: [], followUp: [] };
		this.usage = sumUsage([]);
		this.recorded = {};
		await this.announce();
	}

	/** Closes the session file. The session is unusable afterwards. */
	dispose(): void {
		this.store.close();
	}

	// ---- internals -----------------------------------------------------------------------------------

	private async announce(): Promise<void> {
		await this.emit({
			type: "session_open",
			sessionId: this.store.id,
			file: this.store.file,
			cwd: this.cwd,
			provider: this.provider,
			model: this.modelId,
			thinkingLevel: this.thinkingLevel,
			messageCount: this.agent.state.messages.length,
		});
		if (this.modelProblem) await this.emit({ type: "session_error", message: this.modelProblem });
	}

	private async onAgentEvent(event: SessionEvent): Promise<void> {
		switch (event.type) {
			case "agent_start":
				this.turnsThisRun = 0;
				break;
			case "message_update":
				if (this.pendingRetry !== undefined) await this.finishRetry(true);
				break;
			case "message_start":
				await this.dropDelivered(event.message);
				break;
			case "message_end":
				this.persist(event.message);
				if (event.message.role === "assistant") {
					this.usage = addUsage(this.usage, event.message);
					const stop = (event.message as AssistantMessage).stopReason;
					if (this.pendingRetry !== undefined) await this.finishRetry(stop !== "error" && stop !== "aborted");
				}
				break;
		}
		await this.emit(event);
	}

	/** Appends at message_end; a write failure is reported, never allowed to break the run. */
	private persist(message: AgentMessage): void {
		try {
			this.store.append({ type: "message", message });
		} catch (error) {
			this.runProblem = `Could not write the session file ${this.store.file}: ${(error as Error).message}`;
			void this.emit({ type: "session_error", message: this.runProblem });
		}
	}

	/** Writes model and thinking changes into the session file (buffered until the first message). */
	private recordSettings(): void {
		try {
			const model = `${this.provider}/${this.modelId}`;
			if (this.resolved && this.recorded.model !== model) {
				this.store.append({ type: "model_change", provider: this.provider, modelId: this.modelId });
				this.recorded.model = model;
			}
			if (this.recorded.thinking !== this.thinkingLevel) {
				this.store.append({ type: "thinking_change", thinkingLevel: this.thinkingLevel });
				this.recorded.thinking = this.thinkingLevel;
			}
		} catch (error) {
			void this.emit({ type: "session_error", message: `Could not write the session file: ${(error as Error).message}` });
		}
	}

	private onRetry(info: RetryInfo): void {
		this.pendingRetry = info.attempt;
		void this.emit({ type: "retry_scheduled", ...info });
	}

	private async finishRetry(success: boolean): Promise<void> {
		const attempt = this.pendingRetry!;
		this.pendingRetry = undefined;
		await this.emit({ type: "retry_finished", attempt, success });
	}

	/** A queued message reached the conversation: it is no longer queued. */
	private async dropDelivered(message: AgentMessage): Promise<void> {
		const before = this.queued.steering.length + this.queued.followUp.length;
		this.queued.steering = this.queued.steering.filter((q) => q.message !== message);
		this.queued.followUp = this.queued.followUp.filter((q) => q.message !== message);
		if (this.queued.steering.length + this.queued.followUp.length !== before) await this.emitQueue();
	}

	private emitQueue(): Promise<void> {
		return this.emit({ type: "queue_changed", ...this.queue });
	}

	/** One ordered delivery chain for the agent's events and the session's own. */
	private emit(event: SessionEvent | SessionOwnEvent): Promise<void> {
		const delivered = this.dispatch.then(async () => {
			for (const listener of [...this.listeners]) await listener(event);
		});
		this.dispatch = delivered.catch(() => {});
		return delivered;
	}

	private tryResolve(selection: ModelSelection): boolean {
		try {
			this.resolved = this.options.models.resolve(selection);
			this.modelProblem = undefined;
			return true;
		} catch (error) {
			this.resolved = undefined;
			this.modelProblem = (error as Error).message;
			return false;
		}
	}

	private ensureModel(): boolean {
		if (this.resolved) return true;
		if (!this.tryResolve(this.selection)) return false;
		this.agent.setModel(this.resolved!.model);
		return true;
	}

	private selectionFromRef(ref: string): ModelSelection {
		const slash = ref.indexOf("/");
		if (slash > 0) return { provider: ref.slice(0, slash), modelId: ref.slice(slash + 1) };
		// Same provider: keep its endpoint and key overrides.
		return { ...this.selection, modelId: ref };
	}

	private outcome(firstOfRun: number): RunOutcome {
		const run = this.agent.state.messages.slice(firstOfRun);
		const last = run.reverse().find((m) => m.role === "assistant") as AssistantMessage | undefined;
		if (this.runProblem) return { status: "error", message: last, errorMessage: this.runProblem };
		if (this.abortRequested || last?.stopReason === "aborted") {
			return { status: "aborted", message: last, errorMessage: last?.errorMessage ?? "aborted" };
		}
		if (last?.stopReason === "error") return { status: "error", message: last, errorMessage: last.errorMessage };
		return { status: "done", message: last };
	}
}

function userMessage(text: string, images?: ImageContent[]): UserMessage {
	const content = images && images.length > 0 ? [{ type: "text" as const, text }, ...images] : text;
	return { role: "user", content, timestamp: Date.now() };
}

/** Stands in until the selection resolves, so the session can open and explain what is missing. */
function placeholderModel(selection: ModelSelection): Model {
	return {
		id: selection.modelId ?? "unknown",
		name: selection.modelId ?? "unknown",
		api: "none",
		provider: selection.provider ?? "unknown",
		baseUrl: selection.baseUrl ?? "",
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 0,
		maxTokens: 0,
	};
}
