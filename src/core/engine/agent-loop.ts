// The agent loop: call the model, run the tools it asks for, feed the results back, until it stops.
import { raceAbort, errorMessage } from "../lib/index.js";
import type { AgentContext, AgentEvent, AgentLoopConfig, AgentMessage } from "./agent-types.js";
import { EventStream, errorAssistantMessage } from "../ai/index.js";
import type { AssistantMessage, AssistantMessageEvent, AssistantMessageEventStream, Context, StreamFn, ToolResultMessage } from "../ai/index.js";
import { type AgentEventSink, executeToolCalls } from "./tool-execution.js";

export type { AgentEventSink } from "./tool-execution.js";

/**
 * Runs `run`, pushing its events into a stream that ends with agent_end. The loop ends every run with agent_end
 * itself; should it still reject (a defect), the stream ends with an error message rather than staying open.
 */
function streamRun(
	config: AgentLoopConfig,
	run: (emit: AgentEventSink) => Promise<AgentMessage[]>,
): EventStream<AgentEvent, AgentMessage[]> {
	const stream = new EventStream<AgentEvent, AgentMessage[]>(
		(event) => event.type === "agent_end",
		(event) => (event.type === "agent_end" ? event.messages : []),
	);
	void run((event) => stream.push(event)).then(
		(messages) => stream.end(messages),
		(error: unknown) => {
			const message = errorAssistantMessage(config.model, errorMessage(error));
			for (const event of failureEvents(message, true)) stream.push(event);
			stream.push({ type: "agent_end", messages: [message] });
			stream.end([message]);
		},
	);
	return stream;
}

/** Starts a run with new prompt messages. The returned stream ends with agent_end. */
export function agentLoop(
	prompts: AgentMessage[],
	context: AgentContext,
	config: AgentLoopConfig,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): EventStream<AgentEvent, AgentMessage[]> {
	return streamRun(config, (emit) => runAgentLoop(prompts, context, config, emit, signal, streamFn));
}

/** Continues from the current context (e.g. after an error), without a new prompt. */
export function agentLoopContinue(
	context: AgentContext,
	config: AgentLoopConfig,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): EventStream<AgentEvent, AgentMessage[]> {
	assertCanContinue(context);
	return streamRun(config, (emit) => runAgentLoopContinue(context, config, emit, signal, streamFn));
}

export function assertCanContinue(context: AgentContext): void {
	if (context.messages.length === 0) throw new Error("Cannot continue: no messages in context");
	const last = context.messages[context.messages.length - 1]!;
	if (last.role === "assistant") throw new Error("Cannot continue from message role: assistant");
}

/** One loop invocation: its prompts (none for a continuation), then turns until the run ends. Returns its new messages. */
export async function runAgentLoop(
	prompts: AgentMessage[],
	context: AgentContext,
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): Promise<AgentMessage[]> {
	const newMessages: AgentMessage[] = [...prompts];
	const currentContext: AgentContext = { ...context, messages: [...context.messages, ...prompts] };
	await emit({ type: "agent_start" });
	await emit({ type: "turn_start" });
	for (const prompt of prompts) {
		await emit({ type: "message_start", message: prompt });
		await emit({ type: "message_end", message: prompt });
	}
	await runLoop(currentContext, newMessages, config, signal, emit, streamFn);
	return newMessages;
}

export function runAgentLoopContinue(
	context: AgentContext,
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): Promise<AgentMessage[]> {
	assertCanContinue(context);
	return runAgentLoop([], context, config, emit, signal, streamFn);
}

/** A loop callback broke its contract by throwing; the run ends with an error assistant message naming it. */
class CallbackFailure extends Error {}

async function guarded<T>(name: string, callback: () => T | Promise<T>): Promise<T> {
	try {
		return await callback();
	} catch (error) {
		throw new CallbackFailure(`${name} failed: ${errorMessage(error)}`);
	}
}

/** The events that close a run's failed turn with `message` (opening the turn first when none is open). */
function failureEvents(message: AssistantMessage, turnOpen: boolean): AgentEvent[] {
	return [
		...(turnOpen ? [] : [{ type: "turn_start" } as const]),
		{ type: "message_start", message },
		{ type: "message_end", message },
		{ type: "turn_end", message, toolResults: [] },
	];
}

async function runLoop(
	currentContext: AgentContext,
	newMessages: AgentMessage[],
	config: AgentLoopConfig,
	signal: AbortSignal | undefined,
	emit: AgentEventSink,
	streamFn: StreamFn | undefined,
): Promise<void> {
	// The caller emitted the first turn_start.
	let turnOpen = true;
	const endTurn = async (message: AssistantMessage, toolResults: ToolResultMessage[]) => {
		turnOpen = false;
		await emit({ type: "turn_end", message, toolResults });
	};
	const steering = async () => (await guarded("getSteeringMessages", () => config.getSteeringMessages?.())) ?? [];
	const followUp = async () => (await guarded("getFollowUpMessages", () => config.getFollowUpMessages?.())) ?? [];
	try {
		let firstTurn = true;
		let pendingMessages: AgentMessage[] = await steering();

		while (true) {
			let hasMoreToolCalls = true;
			while (hasMoreToolCalls || pendingMessages.length > 0) {
				if (firstTurn) firstTurn = false;
				else {
					turnOpen = true;
					await emit({ type: "turn_start" });
				}

				for (const message of pendingMessages) {
					await emit({ type: "message_start", message });
					await emit({ type: "message_end", message });
					currentContext.messages.push(message);
					newMessages.push(message);
				}
				pendingMessages = [];

				const message = await streamAssistantResponse(currentContext, config, signal, emit, streamFn);
				newMessages.push(message);

				if (message.stopReason === "error" || message.stopReason === "aborted") {
					await endTurn(message, []);
					await emit({ type: "agent_end", messages: newMessages });
					return;
				}

				hasMoreToolCalls = message.content.some((block) => block.type === "toolCall");
				let toolResults: ToolResultMessage[] = [];
				let terminate = false;
				if (hasMoreToolCalls) {
					const batch = await executeToolCalls(currentContext, message, config, signal, emit);
					toolResults = batch.messages;
					terminate = batch.terminate;
					currentContext.messages.push(...toolResults);
					newMessages.push(...toolResults);
				}
				await endTurn(message, toolResults);

				// An abort during the tools ends the run here rather than asking the model again.
				if (terminate || signal?.aborted) {
					await emit({ type: "agent_end", messages: newMessages });
					return;
				}
				const stopCheck = config.shouldStopAfterTurn;
				const stopContext = { message, toolResults, context: currentContext, newMessages: [...newMessages] };
				if (stopCheck && (await guarded("shouldStopAfterTurn", () => stopCheck(stopContext)))) {
					await emit({ type: "agent_end", messages: newMessages });
					return;
				}
				pendingMessages = await steering();
			}

			const followUps = await followUp();
			if (followUps.length === 0) break;
			pendingMessages = followUps;
		}
		await emit({ type: "agent_end", messages: newMessages });
	} catch (error) {
		// Listener failures are the Agent's to record; only a broken callback ends the run here.
		if (!(error instanceof CallbackFailure)) throw error;
		const message = errorAssistantMessage(config.model, error.message, { aborted: signal?.aborted });
		newMessages.push(message);
		for (const event of failureEvents(message, turnOpen)) await emit(event);
		await emit({ type: "agent_end", messages: newMessages });
	}
}

/**
 * Streams one assistant message into the context, emitting message_start/update/end.
 * Always returns a final message: a failing or throwing provider yields stopReason "error".
 */
async function streamAssistantResponse(
	context: AgentContext,
	config: AgentLoopConfig,
	signal: AbortSignal | undefined,
	emit: AgentEventSink,
	streamFn: StreamFn | undefined,
): Promise<AssistantMessage> {
	let partial: AssistantMessage | undefined;
	let started = false;

	const startMessage = async (message: AssistantMessage) => {
		partial = message;
		started = true;
		context.messages.push(message);
		await emit({ type: "message_start", message: { ...message } });
	};
	const finish = async (message: AssistantMessage) => {
		if (started) context.messages[context.messages.length - 1] = message;
		else await startMessage(message);
		await emit({ type: "message_end", message });
		return message;
	};

	// The request's own signal: aborted with the run, and when this stops reading before the stream's end (a
	// listener threw), since a provider waits for a consumer that falls behind.
	const request = new AbortController();
	const endRequest = () => request.abort();
	if (signal?.aborted) endRequest();
	else signal?.addEventListener("abort", endRequest, { once: true });
	const stopRelay = () => signal?.removeEventListener("abort", endRequest);

	let response: AssistantMessageEventStream;
	try {
		const messages = config.transformContext
			? await config.transformContext(context.messages, signal)
			: context.messages;
		const llmContext: Context = {
			systemPrompt: context.systemPrompt,
			messages: await config.convertToLlm(messages),
			tools: context.tools,
		};
		const fn = streamFn ?? (await import("../ai/index.js")).streamModel;
		// Read once: the key is the one for the model this request goes to, even if the model changes meanwhile.
		const model = config.model;
		const apiKey = (config.getApiKey ? await config.getApiKey(model.provider) : undefined) || config.apiKey;
		response = await fn(model, llmContext, { ...config, apiKey, signal: request.signal });
	} catch (error) {
		stopRelay();
		return finish(failedMessage(config, partial, signal, error));
	}

	/** One event of the stream; a promise only while a listener is still working on it. */
	const update = (event: Exclude<AssistantMessageEvent, { type: "done" | "error" }>): Promise<void> | undefined => {
		const message = event.partial;
		partial = message;
		context.messages[context.messages.length - 1] = message;
		return emit({ type: "message_update", message: { ...message }, assistantMessageEvent: event }) ?? undefined;
	};

	// Two loops rather than one async generator of batches: the generator's extra ticks slowed a fast stream on the
	// streaming-screen benchmark from about 0.4 s to 0.55 s.
	try {
		if (response instanceof EventStream) {
			// Our providers' streams: whatever one network read produced is handled in one go, waiting (and
			// racing the abort) once per read instead of once per event.
			for (;;) {
				const events = response.takeQueued();
				for (const event of events) {
					if (event.type === "done") return finish(event.message);
					if (event.type === "error") return finish(event.error);
					if (!started) await startMessage(event.partial);
					if (event.type === "start") continue;
					const pending = update(event);
					if (pending) await pending;
				}
				if (events.length > 0) continue;
				if (response.drained) break;
				// A provider that ignores the signal still cannot hold the run past the grace period.
				await raceAbort(response.whenReady(), signal);
			}
		} else {
			// Any other async iterable of events (a custom StreamFn may return its own).
			const iterator = (response as AsyncIterable<AssistantMessageEvent>)[Symbol.asyncIterator]();
			while (true) {
				const next = await raceAbort(iterator.next(), signal);
				if (next.done) break;
				const event = next.value;
				if (event.type === "done") return finish(event.message);
				if (event.type === "error") return finish(event.error);
				if (!started) await startMessage(event.partial);
				if (event.type === "start") continue;
				const pending = update(event);
				if (pending) await pending;
			}
		}
		return finish(failedMessage(config, partial, signal, new Error("Provider stream ended without a final message")));
	} catch (error) {
		endRequest();
		return finish(failedMessage(config, partial, signal, error));
	} finally {
		stopRelay();
	}
}

function failedMessage(
	config: AgentLoopConfig,
	partial: AssistantMessage | undefined,
	signal: AbortSignal | undefined,
	error: unknown,
): AssistantMessage {
	const aborted = signal?.aborted === true;
	return errorAssistantMessage(config.model, aborted ? "Request aborted" : errorMessage(error), { aborted, partial });
}
