// The stateful Agent: owns the conversation, runs the loop, reduces its own state before notifying listeners.
import { setMaxListeners } from "node:events";
import { assertCanContinue, runAgentLoop, runAgentLoopContinue } from "./agent-loop.js";
import { errorMessage } from "../lib/index.js";
import { placeholderModel, errorAssistantMessage, userMessage } from "../ai/index.js";
import { OrderedDelivery, callInOrder } from "./event-delivery.js";
import type {
	AgentContext,
	AgentEvent,
	AgentLoopConfig,
	AgentMessage,
	AgentState,
	AgentTool,
	ToolExecutionMode,
} from "./agent-types.js";
import type { ImageContent, Message, Model, StreamFn, StreamOptions, ThinkingLevel } from "../ai/index.js";

export type AgentListener = (event: AgentEvent, signal: AbortSignal) => Promise<void> | void;

/** "one-at-a-time" delivers one queued message per turn; "all" delivers the whole queue at once. */
export type QueueMode = "all" | "one-at-a-time";

export interface AgentOptions {
	initialState?: Partial<Pick<AgentState, "systemPrompt" | "model" | "thinkingLevel" | "tools" | "messages">>;
	/** Default: keep only user, assistant and toolResult messages. */
	convertToLlm?: AgentLoopConfig["convertToLlm"];
	transformContext?: AgentLoopConfig["transformContext"];
	streamFn?: StreamFn;
	getApiKey?: AgentLoopConfig["getApiKey"];
	toolExecution?: ToolExecutionMode;
	beforeToolCall?: AgentLoopConfig["beforeToolCall"];
	afterToolCall?: AgentLoopConfig["afterToolCall"];
	shouldStopAfterTurn?: AgentLoopConfig["shouldStopAfterTurn"];
	steeringMode?: QueueMode;
	followUpMode?: QueueMode;
	/** Passed to every model request (retries, idle timeout, onRetry, maxTokens...). */
	streamOptions?: Omit<StreamOptions, "signal" | "reasoning">;
}

export function defaultConvertToLlm(messages: AgentMessage[]): Message[] {
	return messages.filter(
		(message): message is Message =>
			message.role === "user" || message.role === "assistant" || message.role === "toolResult",
	);
}

/** The Agent's state as callers see it: everything read-only but the two lists, whose assignment is copied. */
export type AgentStateView = Readonly<Omit<AgentState, "tools" | "messages">> & Pick<AgentState, "tools" | "messages">;

export class Agent {
	private readonly _state: AgentState & { pendingToolCalls: Set<string> };
	/** Replaced, never changed in place: a delivery in progress keeps the list it started with. */
	private listeners: readonly AgentListener[] = [];
	private steeringQueue: AgentMessage[] = [];
	private followUpQueue: AgentMessage[] = [];
	private abortController?: AbortController;
	private running?: Promise<void>;

	toolExecution: ToolExecutionMode;
	beforeToolCall?: AgentLoopConfig["beforeToolCall"];
	afterToolCall?: AgentLoopConfig["afterToolCall"];
	shouldStopAfterTurn?: AgentLoopConfig["shouldStopAfterTurn"];
	transformContext?: AgentLoopConfig["transformContext"];
	convertToLlm: AgentLoopConfig["convertToLlm"];
	getApiKey?: AgentLoopConfig["getApiKey"];
	streamFn?: StreamFn;
	streamOptions: Omit<StreamOptions, "signal" | "reasoning">;
	steeringMode: QueueMode;
	followUpMode: QueueMode;

	constructor(options: AgentOptions = {}) {
		const initial = options.initialState ?? {};
		let tools = [...(initial.tools ?? [])];
		let messages = [...(initial.messages ?? [])];
		this._state = {
			systemPrompt: initial.systemPrompt ?? "",
			model: initial.model ?? placeholderModel(),
			thinkingLevel: initial.thinkingLevel ?? "off",
			// Arrays assigned from outside are copied: the caller's later pushes and pops never reach the agent.
			get tools() {
				return tools;
			},
			set tools(value) {
				tools = [...value];
			},
			get messages() {
				return messages;
			},
			set messages(value) {
				messages = [...value];
			},
			isStreaming: false,
			streamingMessage: undefined,
			pendingToolCalls: new Set<string>(),
			errorMessage: undefined,
		};
		this.toolExecution = options.toolExecution ?? "parallel";
		this.beforeToolCall = options.beforeToolCall;
		this.afterToolCall = options.afterToolCall;
		this.shouldStopAfterTurn = options.shouldStopAfterTurn;
		this.transformContext = options.transformContext;
		this.convertToLlm = options.convertToLlm ?? defaultConvertToLlm;
		this.getApiKey = options.getApiKey;
		this.streamFn = options.streamFn;
		this.streamOptions = options.streamOptions ?? {};
		this.steeringMode = options.steeringMode ?? "one-at-a-time";
		this.followUpMode = options.followUpMode ?? "one-at-a-time";
	}

	/**
	 * Run-time truth, for queries. Assigning `tools` or `messages` stores a copy of the array; change the rest
	 * through the methods below.
	 */
	get state(): AgentStateView {
		return this._state;
	}

	subscribe(listener: AgentListener): () => void {
		this.listeners = [...this.listeners, listener];
		return () => {
			const index = this.listeners.indexOf(listener);
			if (index >= 0) this.listeners = this.listeners.filter((_, i) => i !== index);
		};
	}

	setSystemPrompt(systemPrompt: string): void {
		this._state.systemPrompt = systemPrompt;
	}
	setModel(model: Model): void {
		this._state.model = model;
	}
	setThinkingLevel(level: ThinkingLevel): void {
		this._state.thinkingLevel = level;
	}
	/** Stores a copy of the list. */
	setTools(tools: AgentTool<any>[]): void {
		this._state.tools = tools;
	}
	/** Stores a copy of the list. */
	replaceMessages(messages: AgentMessage[]): void {
		this._state.messages = messages;
	}
	appendMessage(message: AgentMessage): void {
		this._state.messages.push(message);
	}

	async prompt(input: string | AgentMessage | AgentMessage[], images?: ImageContent[]): Promise<void> {
		if (this._state.isStreaming) {
			throw new Error(
				"Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for it to finish.",
			);
		}
		const prompts = toMessages(input, images);
		await this.run((context, config, emit, signal) =>
			runAgentLoop(prompts, context, config, emit, signal, this.streamFn),
		);
	}

	/** Continues from the current messages; after an assistant message, runs queued messages if any. */
	async continue(): Promise<void> {
		if (this._state.isStreaming) throw new Error("Agent is already processing. Wait for it to finish.");
		const last = this._state.messages[this._state.messages.length - 1];
		if (last?.role === "assistant") {
			const queued = this.dequeue("steering");
			const next = queued.length > 0 ? queued : this.dequeue("followUp");
			if (next.length > 0) return this.prompt(next);
		}
		assertCanContinue({ messages: this._state.messages });
		await this.run((context, config, emit, signal) =>
			runAgentLoopContinue(context, config, emit, signal, this.streamFn),
		);
	}

	abort(): void {
		this.abortController?.abort();
	}

	waitForIdle(): Promise<void> {
		return this.running ?? Promise.resolve();
	}

	/** Delivered after the current tool batch, before the next model call. */
	steer(message: AgentMessage): void {
		this.steeringQueue.push(message);
	}

	/** Delivered only when the agent would otherwise stop. */
	followUp(message: AgentMessage): void {
		this.followUpQueue.push(message);
	}

	clearAllQueues(): { steering: AgentMessage[]; followUp: AgentMessage[] } {
		const cleared = { steering: this.steeringQueue, followUp: this.followUpQueue };
		this.steeringQueue = [];
		this.followUpQueue = [];
		return cleared;
	}

	hasQueuedMessages(): boolean {
		return this.steeringQueue.length > 0 || this.followUpQueue.length > 0;
	}

	get queuedMessages(): { steering: readonly AgentMessage[]; followUp: readonly AgentMessage[] } {
		return { steering: this.steeringQueue, followUp: this.followUpQueue };
	}

	reset(): void {
		this._state.messages = [];
		this._state.streamingMessage = undefined;
		this._state.pendingToolCalls = new Set();
		this._state.errorMessage = undefined;
		this.clearAllQueues();
	}

	private dequeue(which: "steering" | "followUp"): AgentMessage[] {
		const mode = which === "steering" ? this.steeringMode : this.followUpMode;
		const queue = which === "steering" ? this.steeringQueue : this.followUpQueue;
		if (queue.length === 0) return [];
		return mode === "all" ? queue.splice(0) : queue.splice(0, 1);
	}

	private loopConfig(): AgentLoopConfig {
		const thinking = this._state.thinkingLevel;
		const state = () => this._state;
		return {
			...this.streamOptions,
			// Read at each request: a model chosen during a run answers from the run's next request on.
			get model() {
				return state().model;
			},
			reasoning: thinking === "off" ? undefined : thinking,
			convertToLlm: this.convertToLlm,
			transformContext: this.transformContext,
			getApiKey: this.getApiKey,
			toolExecution: this.toolExecution,
			beforeToolCall: this.beforeToolCall,
			afterToolCall: this.afterToolCall,
			shouldStopAfterTurn: this.shouldStopAfterTurn,
			getSteeringMessages: () => this.dequeue("steering"),
			getFollowUpMessages: () => this.dequeue("followUp"),
		};
	}

	private async run(
		loop: (
			context: AgentContext,
			config: AgentLoopConfig,
			emit: (event: AgentEvent) => Promise<void> | undefined,
			signal: AbortSignal,
		) => Promise<AgentMessage[]>,
	): Promise<void> {
		const controller = new AbortController();
		// Every running tool call and hook listens for abort at once; a large batch is not a leak.
		setMaxListeners(0, controller.signal);
		this.abortController = controller;
		this._state.isStreaming = true;
		this._state.errorMessage = undefined;
		let finished!: () => void;
		this.running = new Promise((resolve) => (finished = resolve));

		const context: AgentContext = {
			systemPrompt: this._state.systemPrompt,
			messages: [...this._state.messages],
			tools: this._state.tools,
		};
		let sawAgentEnd = false;
		// Parallel tools emit concurrently; the delivery keeps each event's reduction and listeners whole and
		// in order (and costs no promise for an event whose listeners are all synchronous).
		const delivery = new OrderedDelivery<AgentEvent>((event) => this.processEvent(event, controller.signal));
		const emit = (event: AgentEvent) => {
			if (event.type === "agent_end") sawAgentEnd = true;
			return delivery.deliver(event);
		};
		try {
			await loop(context, this.loopConfig(), emit, controller.signal);
		} catch (error) {
			// A hook or listener threw: record it as a failed assistant message so nothing is silently lost.
			await this.recordRunFailure(error, controller.signal, sawAgentEnd);
		} finally {
			this._state.isStreaming = false;
			this._state.streamingMessage = undefined;
			this._state.pendingToolCalls = new Set();
			this.abortController = undefined;
			this.running = undefined;
			finished();
		}
	}

	private async recordRunFailure(error: unknown, signal: AbortSignal, sawAgentEnd: boolean): Promise<void> {
		const message = errorAssistantMessage(this._state.model, errorMessage(error), { aborted: signal.aborted });
		const events: AgentEvent[] = [
			{ type: "message_start", message },
			{ type: "message_end", message },
			{ type: "turn_end", message, toolResults: [] },
		];
		if (!sawAgentEnd) events.push({ type: "agent_end", messages: [message] });
		for (const event of events) {
			try {
				await this.processEvent(event, signal);
			} catch {
				// The listener that failed once may fail again; the state above is already reduced.
			}
		}
	}

	/**
	 * Reduce internal state first, then await every listener in subscription order.
	 * Synchronous while the listeners are: a promise only once one returns a promise.
	 */
	private processEvent(event: AgentEvent, signal: AbortSignal): Promise<void> | undefined {
		const state = this._state;
		switch (event.type) {
			case "message_start":
			case "message_update":
				state.streamingMessage = event.message;
				break;
			case "message_end":
				state.streamingMessage = undefined;
				state.messages.push(event.message);
				break;
			case "tool_execution_start":
				state.pendingToolCalls.add(event.toolCallId);
				break;
			case "tool_execution_end":
				state.pendingToolCalls.delete(event.toolCallId);
				break;
			case "turn_end":
				if (event.message.role === "assistant" && event.message.errorMessage) {
					state.errorMessage = event.message.errorMessage;
				}
				break;
			case "agent_end":
				state.streamingMessage = undefined;
				break;
		}
		return callInOrder(this.listeners, (listener) => listener(event, signal));
	}
}

function toMessages(input: string | AgentMessage | AgentMessage[], images?: ImageContent[]): AgentMessage[] {
	if (Array.isArray(input)) return input;
	return [typeof input === "string" ? userMessage(input, images) : input];
}
