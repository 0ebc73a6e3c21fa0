// A scripted SessionPort for screen tests: prompt() replays SessionEvents, steps can wait on gates the
// test opens, and every call is recorded. A test double only; the real one is the AgentSession.
import type { AgentMessage } from "../../src/core/engine/agent-types.js";
import type { ThinkingLevel } from "../../src/core/ai/llm-types.js";
import { type PromptOptions, userMessage } from "../../src/core/ai/messages.js";
import { CommandRegistry } from "../../src/core/session/commands/command-registry.js";
import type { ModelListing } from "../../src/core/ai/models/model-registry.js";
import { type CommandSession, registerSessionCommands } from "../../src/core/session/commands/session-commands.js";
import type { SessionEvent } from "../../src/core/session/session-events.js";
import { ToolCallStates } from "../../src/core/session/tool-calls.js";
import type { ApprovalMode } from "../../src/core/config/approval-mode.js";
import { type SessionUi, nonInteractiveUi } from "../../src/core/session/session-ui.js";
import type { NamedToolPresentation } from "../../src/core/engine/tool-definition.js";
import type { UserCommandOptions, UserCommandResult } from "../../src/core/session/user-command.js";
import { createUserCommandRunner } from "../../src/tools/index.js";
import type { SessionPort, SessionSummary } from "../../src/tui/session-port.js";
import { builtinTools } from "../support/builtin-tools.js";
import { type UsageTotals, zeroUsage } from "../../src/core/session/store/usage-totals.js";
import { assistant } from "./events.js";

export type ScriptStep = SessionEvent | (() => Promise<void>);
export type Script = (text: string) => ScriptStep[];

export interface Gate {
	promise: Promise<void>;
	open(): void;
}

export function gate(): Gate {
	let open = () => {};
	const promise = new Promise<void>((resolve) => {
		open = resolve;
	});
	return { promise, open };
}

export class FakeSession implements SessionPort {
	readonly calls: { prompts: string[]; steers: string[]; aborts: number; models: string[]; levels: string[]; resumed: string[]; news: number; compacts: (string | undefined)[] } = {
		prompts: [],
		steers: [],
		aborts: 0,
		models: [],
		levels: [],
		resumed: [],
		news: 0,
		compacts: [],
	};
	readonly commands = new CommandRegistry<CommandSession>();
	model: SessionPort["model"] = { id: "test-model", provider: "test", contextWindow: 100_000 };
	thinkingLevel: ThinkingLevel = "medium";
	cwd = "/work/project";
	sessionFile: string | undefined = "/home/u/.loom/sessions/s1.jsonl";
	messageCount = 0;
	messages: AgentMessage[] = [];
	usageTotals: UsageTotals = zeroUsage();
	sessions: SessionSummary[] = [];
	/** What availableModels() offers the /model picker (none: /model names the current model). */
	models: ModelListing[] = [];
	/** The built-in tools' presentations, as a real session hands them to the screen. */
	tools: readonly NamedToolPresentation[] = builtinTools;
	/** What the screen installed with setUi (non-interactive until then, as in a real session). */
	ui: SessionUi = nonInteractiveUi();
	/** Set when a test plays an approval policy (the real one lives on AgentSession). */
	approvalMode: ApprovalMode | undefined;
	/** Thrown by prompt() before anything starts (e.g. a missing API key). */
	promptError: Error | undefined;
	private listeners = new Set<(event: SessionEvent) => void | Promise<void>>();
	/** The real session's tool-call states, fed the scripted events: the screen draws its rows from them. */
	private readonly callStates = new ToolCallStates(() => this.tools);
	private queue: { steering: string[]; followUp: string[] } = { steering: [], followUp: [] };
	private aborted = false;
	private running = false;

	constructor(private script: Script = (text) => [{ type: "message_end", message: assistant(`echo: ${text}`) }]) {
		registerSessionCommands(this.commands);
	}

	setUi(ui: SessionUi): void {
		this.ui = ui;
	}

	setScript(script: Script): void {
		this.script = script;
	}

	subscribe(listener: (event: SessionEvent) => void | Promise<void>): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	get listenerCount(): number {
		return this.listeners.size;
	}

	/** Delivers `event` as AgentSession does: the tool-call states it changes first (tool_call_changed), then it. */
	async emit(event: SessionEvent): Promise<void> {
		for (const next of [...this.callStates.reduce(event), event]) {
			for (const listener of [...this.listeners]) await listener(next);
		}
	}

	/** What each prompt was sent with besides its text (images, the text as typed). */
	readonly promptOptions: PromptOptions[] = [];

	async prompt(text: string, options: PromptOptions = {}): Promise<void> {
		this.calls.prompts.push(text);
		this.promptOptions.push(options);
		if (this.promptError) throw this.promptError;
		if (this.running) throw new Error("A run is already active.");
		this.running = true;
		this.aborted = false;
		try {
			await this.emit({ type: "run_start" });
			await this.emit({ type: "agent_start" });
			const message = userMessage(text, options.images, options.typed);
			await this.emit({ type: "message_start", message });
			await this.emit({ type: "message_end", message });
			for (const step of this.script(text)) {
				if (this.aborted) break;
				if (typeof step === "function") await step();
				else await this.emit(step);
			}
			if (this.aborted) await this.emit({ type: "message_end", message: assistant("", { stopReason: "aborted" }) });
			await this.emit({ type: "agent_end", messages: [] });
		} finally {
			this.running = false;
		}
		await this.emit({ type: "run_end", status: this.aborted ? "aborted" : "done" });
	}

	async steer(text: string, options: Pick<PromptOptions, "typed"> = {}): Promise<void> {
		this.calls.steers.push(text);
		this.steerOptions.push(options);
		this.queue = { ...this.queue, steering: [...this.queue.steering, text] };
		await this.emit({ type: "queue_changed", ...this.queue });
	}

	readonly steerOptions: Pick<PromptOptions, "typed">[] = [];

	/** Delivers the queued steering messages the way the agent does: as user messages. */
	async deliverSteering(): Promise<void> {
		const steering = this.queue.steering;
		this.queue = { ...this.queue, steering: [] };
		await this.emit({ type: "queue_changed", ...this.queue });
		for (const text of steering) await this.emit({ type: "message_end", message: { role: "user", content: text, timestamp: 0 } });
	}

	abort(): void {
		this.calls.aborts++;
		this.aborted = true;
	}

	/** Runs `!command`s as the real session does, in `cwd`. */
	runUserCommand(command: string, options?: UserCommandOptions): Promise<UserCommandResult> {
		return createUserCommandRunner(this.cwd)(command, options);
	}

	clearQueue(): { steering: string[]; followUp: string[] } {
		const queued = this.queue;
		this.queue = { steering: [], followUp: [] };
		void this.emit({ type: "queue_changed", steering: [], followUp: [] });
		return queued;
	}

	async setModel(modelId: string): Promise<void> {
		if (modelId === "nope") throw new Error(`Unknown model "nope". Run loom --list-models to see the models.`);
		this.calls.models.push(modelId);
		this.model = { id: modelId, provider: "test", contextWindow: 200_000 };
		await this.emit({ type: "model_changed", provider: "test", model: modelId });
	}

	availableModels(): ModelListing[] {
		return this.models;
	}

	async setThinkingLevel(level: ThinkingLevel): Promise<void> {
		this.calls.levels.push(level);
		this.thinkingLevel = level;
		await this.emit({ type: "thinking_changed", level });
	}

	async newSession(): Promise<void> {
		this.calls.news++;
		this.messageCount = 0;
		this.sessionFile = "/home/u/.loom/sessions/s2.jsonl";
		await this.emit({ type: "session_open", sessionId: "s2", file: this.sessionFile, cwd: this.cwd, provider: "test", model: this.model?.id ?? "", thinkingLevel: this.thinkingLevel, messageCount: 0 });
	}

	async compact(instructions?: string): Promise<void> {
		this.calls.compacts.push(instructions);
		await this.emit({ type: "compaction_start", reason: "manual" });
		await this.emit({ type: "compaction_end", reason: "manual", aborted: false, tokensBefore: 5000 });
	}

	listSessions(): SessionSummary[] {
		return this.sessions;
	}

	async resume(sessionFileOrId: string): Promise<void> {
		this.calls.resumed.push(sessionFileOrId);
		this.messages = [
			{ role: "user", content: "the earlier question", timestamp: 0 },
			assistant([{ type: "text", text: "The earlier answer." }, { type: "toolCall", id: "old1", name: "read", arguments: { path: "old.txt" } }]),
			{ role: "toolResult", toolCallId: "old1", toolName: "read", content: [{ type: "text", text: "old" }], isError: false, timestamp: 0 },
		];
		this.messageCount = 7;
		this.usageTotals = { input: 1000, output: 200, cacheRead: 0, cacheWrite: 0, cost: 0.5 };
		await this.emit({ type: "session_open", sessionId: "r", file: sessionFileOrId, cwd: this.cwd, provider: "test", model: this.model?.id ?? "", thinkingLevel: this.thinkingLevel, messageCount: 7 });
	}
}
