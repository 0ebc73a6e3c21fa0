// Compaction inside a session: the threshold check before each model call, recovery from a context overflow,
// and /compact. Each compaction appends one `compaction` entry (the file keeps every message) and swaps the
// agent's messages for the compacted view; a failed or aborted one writes nothing and changes nothing.
import type { Agent, AgentMessage } from "../../engine/index.js";
import { isContextOverflow } from "../../ai/index.js";
import type { AssistantMessage, StreamFn } from "../../ai/index.js";
import {
	compact,
	buildCompactedContext,
	compactionAborted,
	isCompactionAborted,
	type CompactionSettings,
	resolveCompactionSettings,
	shouldCompact,
	applyCompactionToLoopMessages,
	contextUsage,
	estimateContextTokens,
} from "../compaction/index.js";
import type { FileEffectTool } from "../compaction/index.js";
import { RetryTracker } from "./run-state.js";
import type { CompactionReason, SessionEvent } from "../session-events.js";
import type { SessionStore } from "../store/index.js";

/** What the compaction needs from its session (the store changes with /new and /resume, hence a function). */
export interface CompactionHost {
	readonly agent: Agent;
	store(): SessionStore;
	apiKey(): Promise<string | undefined>;
	emit(event: SessionEvent): Promise<void>;
	/** Every tool whose calls the conversation may hold, for the summary's file lists. */
	tools(): readonly FileEffectTool[];
}

export interface SessionCompactionOptions {
	streamFn: StreamFn;
	/** settings.json's `compaction` object; missing fields take the defaults. */
	settings?: Partial<CompactionSettings>;
	/** The session's retry policy, applied to the summary request too. */
	maxRetries?: number;
	idleTimeoutMs?: number;
}

type Ending = "compacted" | "aborted" | "failed";

export class SessionCompaction {
	readonly settings: CompactionSettings;
	/** Aborts a compaction running outside a model run (overflow recovery, /compact); a run's own signal covers the threshold. */
	private controller: AbortController | undefined;
	private running: Promise<unknown> = Promise.resolve();
	/** After a threshold compaction failed, the rest of the run goes on without trying again at every call. */
	private thresholdFailed = false;

	constructor(
		private readonly host: CompactionHost,
		private readonly options: SessionCompactionOptions,
	) {
		this.settings = resolveCompactionSettings(options.settings);
	}

	/** The next request's tokens (last reported usage + estimates since) against the model's window, for the footer. */
	usage(): { tokens: number; contextWindow: number; percent: number | undefined } {
		const { messages, model, systemPrompt, tools } = this.host.agent.state;
		return contextUsage(messages, model.contextWindow, { systemPrompt, tools });
	}

	/** Called when a prompt's run begins. */
	beginRun(): void {
		this.thresholdFailed = false;
	}

	/**
	 * The agent loop's transformContext: maps the loop's messages to the compacted view and, when that view would
	 * exceed `contextWindow − reserve`, compacts first. An abort ends the run (as any abort does), with nothing written.
	 */
	async beforeModelCall(messages: AgentMessage[], signal?: AbortSignal): Promise<AgentMessage[]> {
		const view = applyCompactionToLoopMessages(messages, this.host.store().entries);
		if (this.thresholdFailed || !this.overThreshold(view)) return view;
		const ending = await this.run("threshold", { signal });
		if (ending === "aborted") throw compactionAborted();
		if (ending === "failed") {
			this.thresholdFailed = true;
			return view;
		}
		return applyCompactionToLoopMessages(messages, this.host.store().entries);
	}

	/**
	 * After a run whose last answer failed because the context was too long: compacts (forced, since the estimate
	 * thought it fit) and leaves the agent at the failed request's input, ready for one retry. True when the caller
	 * should retry with agent.continue(). The failed answer stays in the file; providers never send it.
	 */
	async recoverFromOverflow(last: AssistantMessage | undefined): Promise<boolean> {
		const { agent } = this.host;
		if (!this.settings.enabled || last?.stopReason !== "error" || !isContextOverflow(last, agent.state.model.contextWindow)) return false;
		if ((await this.run("overflow", { force: true })) !== "compacted") return false;
		const view = [...agent.state.messages];
		while ((view.at(-1) as AssistantMessage | undefined)?.stopReason === "error") view.pop();
		if (view.length === 0 || view.at(-1)!.role === "assistant") return false;
		agent.replaceMessages(view);
		return true;
	}

	/** /compact: summarises everything but the latest turn's start, with the user's focus instructions. */
	async compactNow(customInstructions?: string): Promise<void> {
		await this.run("manual", { force: true, customInstructions: customInstructions?.trim() || undefined });
	}

	/** Stops a compaction running outside a model run; it ends with compaction_end {aborted: true}. */
	abort(): void {
		this.controller?.abort();
	}

	/** Resolves once no compaction is running. */
	async settled(): Promise<void> {
		await this.running;
	}

	private overThreshold(view: AgentMessage[]): boolean {
		const { model, systemPrompt, tools } = this.host.agent.state;
		return shouldCompact(estimateContextTokens(view, { systemPrompt, tools }), model.contextWindow, this.settings);
	}

	private run(reason: CompactionReason, options: { signal?: AbortSignal; force?: boolean; customInstructions?: string }): Promise<Ending> {
		const done = this.compactOnce(reason, options);
		this.running = done;
		return done;
	}

	private async compactOnce(
		reason: CompactionReason,
		options: { signal?: AbortSignal; force?: boolean; customInstructions?: string },
	): Promise<Ending> {
		const { agent, emit } = this.host;
		const own = options.signal ? undefined : new AbortController();
		if (own) this.controller = own;
		const signal = options.signal ?? own!.signal;
		const retries = new RetryTracker(emit);
		await emit({ type: "compaction_start", reason });
		try {
			const store = this.host.store();
			const result = await compact({
				entries: store.entries,
				model: agent.state.model,
				streamFn: this.options.streamFn,
				apiKey: await this.host.apiKey(),
				signal,
				settings: this.settings,
				force: options.force,
				customInstructions: options.customInstructions,
				tools: this.host.tools(),
				streamOptions: {
					maxRetries: this.options.maxRetries,
					idleTimeoutMs: this.options.idleTimeoutMs,
					onRetry: (info) => retries.scheduled(info),
				},
			});
			// An abort that raced the summary's last chunk still leaves the session as it was.
			if (signal.aborted) throw compactionAborted();
			store.append({ type: "compaction", ...result });
			agent.replaceMessages(buildCompactedContext(store.entries).messages);
			await retries.finish(true);
			await emit({ type: "compaction_end", reason, aborted: false, summary: result.summary, tokensBefore: result.tokensBefore });
			return "compacted";
		} catch (error) {
			await retries.finish(false);
			const aborted = isCompactionAborted(error) || signal.aborted;
			await emit({ type: "compaction_end", reason, aborted, error: aborted ? undefined : (error as Error).message });
			return aborted ? "aborted" : "failed";
		} finally {
			if (own && this.controller === own) this.controller = undefined;
		}
	}
}
