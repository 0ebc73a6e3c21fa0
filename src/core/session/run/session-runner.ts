// A session's prompts, one at a time: from a prompt to its outcome (waiting for the session to open, a
// compaction, run gates; then the agent's runs, overflow recovery and queued messages), the steering and
// follow-up queue, and abort. It owns the run in progress and what the agent's events mean for it. Run gates are
// what a prompt waits for before its run starts (tools still arriving: MCP servers starting), so the run starts
// with them; each gate bounds its own wait, and an abort ends the wait at once.
import type { Agent, AgentMessage } from "../../engine/index.js";
import { errorMessage } from "../../lib/index.js";
import type { AssistantMessage, RetryInfo } from "../../ai/index.js";
import { type PromptOptions, userMessage } from "../../ai/index.js";
import type { RunOutcome } from "../agent-session-types.js";
import type { ModelChoice } from "../model-choice.js";
import { RunState } from "./run-state.js";
import type { SessionCompaction } from "./session-compaction.js";
import type { SessionEvent } from "../session-events.js";
import { MAX_STOP_CONTINUATIONS, type RunHooks } from "./run-hooks.js";

const ALREADY_RUNNING = "A run is already active: use steer() or followUp() to queue a message.";

/** What the runner uses of its session. */
export interface RunnerHost {
	agent: Agent;
	choice: ModelChoice;
	compaction: SessionCompaction;
	maxTurns: number | undefined;
	/** What a prompt waits for before its run starts. */
	gates: RunGates;
	/** Whether a prompt runs and what it carries; whether the agent may stop. */
	runHooks: RunHooks;
	emit(event: SessionEvent): Promise<void>;
	/** Opens the session (session_open) if it is not yet. */
	start(): Promise<void>;
	/** Writes model and thinking changes into the session file. */
	recordSettings(): void;
}

export class SessionRunner {
	/** The prompt being run, from runPrompt's call to its return. */
	private run: RunState | undefined;
	private readonly queued = new MessageQueue();

	constructor(private readonly host: RunnerHost) {}

	/** From run_start to run_end (retries, compactions and queued messages included). */
	get active(): boolean {
		return this.run?.active === true;
	}

	get queue(): { steering: string[]; followUp: string[] } {
		return this.queued.texts();
	}

	/** For the agent's shouldStopAfterTurn: counts a model turn; true once the run reached its limit or failed. */
	countTurn(): boolean {
		return this.run?.countTurn() ?? false;
	}

	async runPrompt(text: string, options: PromptOptions): Promise<RunOutcome> {
		const { agent, choice, compaction } = this.host;
		if (this.run) throw new Error(ALREADY_RUNNING);
		const run = new RunState(this.host.maxTurns, (event) => this.host.emit(event));
		this.run = run;
		try {
			await this.host.start();
			// A prompt sent during /compact runs on the compacted conversation.
			await compaction.settled();
			if (!run.abortRequested) await this.host.gates.pass();
			if (agent.state.isStreaming) throw new Error(ALREADY_RUNNING);
			if (!choice.ensure()) throw new Error(choice.error);
			// Stopped while it waited: nothing is sent.
			if (run.abortRequested) return run.outcome();
			const checked = await this.host.runHooks.checkPrompt(text, run.signal);
			if (run.abortRequested) return run.outcome();
			if (checked.block !== undefined) throw new Error(checked.block);
			// The context goes to the model with the prompt; the transcript shows what the user wrote.
			const sent = checked.context.length > 0 ? [text, ...checked.context].join("\n\n") : text;
			return await this.runToEnd(run, userMessage(sent, options.images, options.typed ?? (sent === text ? undefined : text)));
		} finally {
			if (this.run === run) this.run = undefined;
		}
	}

	/** While running: queued for the agent. While idle (the run just ended): starts a run. */
	enqueue(kind: QueueKind, text: string, typed: string | undefined, idle: boolean): void {
		if (idle) {
			this.runPrompt(text, { typed }).catch((error: unknown) => this.host.emit({ type: "session_error", message: errorMessage(error) }));
			return;
		}
		const message = userMessage(text, undefined, typed);
		this.queued.add(kind, message, text);
		if (kind === "steering") this.host.agent.steer(message);
		else this.host.agent.followUp(message);
		void this.emitQueue();
	}

	/** Takes every queued message back. */
	clearQueue(): { steering: string[]; followUp: string[] } {
		const texts = this.queued.texts();
		this.host.agent.clearAllQueues();
		this.queued.clear();
		void this.emitQueue();
		return texts;
	}

	/** Forgets the queue without a word (a new conversation is loaded). */
	forgetQueue(): void {
		this.queued.clear();
	}

	/** Stops the run (gates, provider stream and retries, tools) and a compaction; they settle on their own. */
	abort(): void {
		if (this.run) {
			this.run.abortRequested = true;
			this.run.stopHooks.abort();
		}
		this.host.gates.abort();
		this.host.agent.abort();
		this.host.compaction.abort();
	}

	/**
	 * The run must end as an error (the session file could not be written, an extension broke): it ends after this
	 * turn, whose tool calls finish, and the model is not asked again. The first problem is the one reported.
	 * False: no run.
	 */
	fail(problem: string): boolean {
		if (!this.run) return false;
		this.run.problem ??= problem;
		return true;
	}

	onRetry(info: RetryInfo): void {
		if (this.run) this.run.retries.scheduled(info);
		else void this.host.emit({ type: "retry_scheduled", ...info });
	}

	/**
	 * What must be delivered before an agent event, in order: the queue once a queued message reached the
	 * conversation, a pending retry's end once the retried request is heard from. Undefined (most events): nothing.
	 */
	before(event: SessionEvent): Promise<void> | undefined {
		switch (event.type) {
			case "message_start":
				return this.queued.delivered(event.message) ? this.emitQueue() : undefined;
			case "message_update":
				return this.run?.retries.pending ? this.run.retries.finish(true) : undefined;
			case "message_end": {
				if (event.message.role !== "assistant" || !this.run) return undefined;
				const answer = event.message as AssistantMessage;
				this.run.lastAnswer = answer;
				return this.run.retries.pending ? this.run.retries.finish(answer.stopReason !== "error" && answer.stopReason !== "aborted") : undefined;
			}
			default:
				return undefined;
		}
	}

	/** The run from run_start to run_end: the prompt, then overflow recovery and queued messages. */
	private async runToEnd(run: RunState, message: AgentMessage): Promise<RunOutcome> {
		const { agent, choice, compaction } = this.host;
		agent.setModel(choice.model);
		run.active = true;
		// Not awaited: an abort() from here on must reach the agent's run, and delivery keeps the order anyway.
		void this.host.emit({ type: "run_start" });
		this.host.recordSettings();
		compaction.beginRun();
		try {
			await agent.prompt(message);
			let retried = false;
			for (;;) {
				// A request the context window could not hold: compact, then retry the turn once.
				if (!retried && !run.abortRequested && (await compaction.recoverFromOverflow(run.lastAnswer))) retried = true;
				else if (!agent.hasQueuedMessages()) {
					const goOn = await this.stopObjection(run);
					if (goOn === undefined) break;
					agent.followUp(userMessage(goOn));
				}
				if (!run.mayContinue) break;
				await agent.continue();
			}
		} finally {
			run.active = false;
			// Cleared before run_end, so a listener may start the next prompt from it.
			this.run = undefined;
			const { status, errorMessage } = run.outcome();
			await this.host.emit({ type: "run_end", status, errorMessage });
		}
		return run.outcome();
	}

	/** What the agent must go on with instead of stopping (a Stop hook's reason), within MAX_STOP_CONTINUATIONS. */
	private async stopObjection(run: RunState): Promise<string | undefined> {
		const stopReason = run.lastAnswer?.stopReason;
		if (!run.mayContinue || stopReason === "error" || stopReason === "aborted" || run.continued >= MAX_STOP_CONTINUATIONS) return undefined;
		const reason = await this.host.runHooks.checkStop({ lastAnswer: run.lastAnswer, continued: run.continued }, run.signal);
		if (reason === undefined || !run.mayContinue) return undefined;
		run.continued++;
		return reason;
	}

	private emitQueue(): Promise<void> {
		return this.host.emit({ type: "queue_changed", ...this.queued.texts() });
	}
}

export type QueueKind = "steering" | "followUp";

/** The texts of steering and follow-up messages waiting for delivery, as the screen shows them. */
export class MessageQueue {
	private items: { kind: QueueKind; message: AgentMessage; text: string }[] = [];

	add(kind: QueueKind, message: AgentMessage, text: string): void {
		this.items.push({ kind, message, text });
	}

	/** Forgets a message that reached the conversation; true if it was queued. */
	delivered(message: AgentMessage): boolean {
		const index = this.items.findIndex((item) => item.message === message);
		if (index === -1) return false;
		this.items.splice(index, 1);
		return true;
	}

	clear(): void {
		this.items = [];
	}

	texts(): { steering: string[]; followUp: string[] } {
		return {
			steering: this.items.filter((item) => item.kind === "steering").map((item) => item.text),
			followUp: this.items.filter((item) => item.kind === "followUp").map((item) => item.text),
		};
	}
}

/** A wait before a prompt's run; it ends early when `signal` aborts. */
export type RunGate = (signal: AbortSignal) => Promise<void>;

export class RunGates {
	private readonly gates = new Set<RunGate>();
	/** Ends the wait of the prompt waiting at the gates now. */
	private waiting: AbortController | undefined;

	/** Returns the function that removes the gate. */
	add(gate: RunGate): () => void {
		this.gates.add(gate);
		return () => this.gates.delete(gate);
	}

	/** Waits at every gate together; a gate that fails is passed. */
	async pass(): Promise<void> {
		if (this.gates.size === 0) return;
		const wait = new AbortController();
		this.waiting = wait;
		try {
			await Promise.all([...this.gates].map((gate) => gate(wait.signal).catch(() => {})));
		} finally {
			if (this.waiting === wait) this.waiting = undefined;
		}
	}

	/** Ends the current wait (the prompt waiting was stopped). */
	abort(): void {
		this.waiting?.abort();
	}
}
