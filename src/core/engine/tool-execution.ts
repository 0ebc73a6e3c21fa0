// Executing one assistant message's tool calls: prepare each call, execute it, finalize it, emit.
// Parallel mode: preflight in source order, execution concurrent, tool_execution_end in completion order,
// toolResult messages in source order. Preparing a call checks the model's raw arguments against the tool's
// TypeBox schema first (validateToolArguments).
import { Value } from "@sinclair/typebox/value";
import { ABORT_GRACE_MS, AbortedError, raceAbort, errorMessage } from "../lib/index.js";
import type { AfterToolCallResult, AgentContext, AgentEvent, AgentLoopConfig, AgentTool, AgentToolResult } from "./agent-types.js";
import type { AssistantMessage, Tool, ToolCall, ToolResultMessage } from "../ai/index.js";

export type AgentEventSink = (event: AgentEvent) => Promise<void> | void;

/** A call that will not run: the outcome is known at preparation time. */
interface ImmediateOutcome {
	kind: "immediate";
	result: AgentToolResult<any>;
	isError: true;
}

interface PreparedToolCall {
	kind: "prepared";
	tool: AgentTool<any>;
	args: unknown;
}

interface FinalizedToolCall {
	toolCall: ToolCall;
	result: AgentToolResult<any>;
	isError: boolean;
}

export interface ToolBatchOutcome {
	messages: ToolResultMessage[];
	/** Every finalized result of the batch asked to terminate. */
	terminate: boolean;
}

export function createErrorToolResult(message: string): AgentToolResult<undefined> {
	return { content: [{ type: "text", text: message }], details: undefined };
}

function immediate(message: string, terminate = false): ImmediateOutcome {
	const result = createErrorToolResult(message);
	if (terminate) result.terminate = true;
	return { kind: "immediate", result, isError: true };
}

export async function executeToolCalls(
	context: AgentContext,
	assistantMessage: AssistantMessage,
	config: AgentLoopConfig,
	signal: AbortSignal | undefined,
	emit: AgentEventSink,
): Promise<ToolBatchOutcome> {
	const toolCalls = assistantMessage.content.filter((block): block is ToolCall => block.type === "toolCall");
	const hasSequentialToolCall = toolCalls.some(
		(toolCall) => context.tools?.find((tool) => tool.name === toolCall.name)?.executionMode === "sequential",
	);
	if (config.toolExecution === "sequential" || hasSequentialToolCall) {
		return executeToolCallsSequential(context, assistantMessage, toolCalls, config, signal, emit);
	}
	return executeToolCallsParallel(context, assistantMessage, toolCalls, config, signal, emit);
}

async function executeToolCallsSequential(
	context: AgentContext,
	assistantMessage: AssistantMessage,
	toolCalls: ToolCall[],
	config: AgentLoopConfig,
	signal: AbortSignal | undefined,
	emit: AgentEventSink,
): Promise<ToolBatchOutcome> {
	const finalizedCalls: FinalizedToolCall[] = [];
	const messages: ToolResultMessage[] = [];
	for (const toolCall of toolCalls) {
		await emitToolExecutionStart(toolCall, emit);
		const preparation = await prepareToolCall(context, assistantMessage, toolCall, config, signal);
		const finalized =
			preparation.kind === "immediate"
				? { toolCall, result: preparation.result, isError: preparation.isError }
				: await runPreparedToolCall(context, assistantMessage, toolCall, preparation, config, signal, emit);
		await emitToolExecutionEnd(finalized, emit);
		finalizedCalls.push(finalized);
		messages.push(await emitToolResultMessage(finalized, emit));
	}
	return { messages, terminate: shouldTerminateToolBatch(finalizedCalls) };
}

async function executeToolCallsParallel(
	context: AgentContext,
	assistantMessage: AssistantMessage,
	toolCalls: ToolCall[],
	config: AgentLoopConfig,
	signal: AbortSignal | undefined,
	emit: AgentEventSink,
): Promise<ToolBatchOutcome> {
	// Phase 1: preflight in source order, so beforeToolCall sees a predictable order.
	const entries: (FinalizedToolCall | (() => Promise<FinalizedToolCall>))[] = [];
	for (const toolCall of toolCalls) {
		await emitToolExecutionStart(toolCall, emit);
		const preparation = await prepareToolCall(context, assistantMessage, toolCall, config, signal);
		if (preparation.kind === "immediate") {
			const finalized = { toolCall, result: preparation.result, isError: preparation.isError };
			await emitToolExecutionEnd(finalized, emit);
			entries.push(finalized);
			continue;
		}
		entries.push(async () => {
			const finalized = await runPreparedToolCall(context, assistantMessage, toolCall, preparation, config, signal, emit);
			await emitToolExecutionEnd(finalized, emit);
			return finalized;
		});
	}

	// Phase 2: run concurrently; each call emits its end when it completes, the array keeps source order.
	const orderedFinalizedCalls = await Promise.all(
		entries.map((entry) => (typeof entry === "function" ? entry() : Promise.resolve(entry))),
	);

	// Phase 3: persist in source order.
	const messages: ToolResultMessage[] = [];
	for (const finalized of orderedFinalizedCalls) {
		messages.push(await emitToolResultMessage(finalized, emit));
	}
	return { messages, terminate: shouldTerminateToolBatch(orderedFinalizedCalls) };
}

async function prepareToolCall(
	context: AgentContext,
	assistantMessage: AssistantMessage,
	toolCall: ToolCall,
	config: AgentLoopConfig,
	signal: AbortSignal | undefined,
): Promise<ImmediateOutcome | PreparedToolCall> {
	if (assistantMessage.stopReason === "length") {
		return immediate(
			`Tool call "${toolCall.name}" was not executed: the response reached the output token limit, so its arguments may be cut off. Re-issue the call with complete arguments (split large content into smaller calls).`,
		);
	}
	if (toolCall.name === "") {
		return immediate("A tool call without a name was not executed. Re-issue it with the name of one of the tools.");
	}
	if (toolCall.argumentsError !== undefined) {
		return immediate(
			`Tool call "${toolCall.name}" was not executed: its arguments were malformed (${toolCall.argumentsError}). Re-issue the call with its complete arguments as one valid JSON object.`,
		);
	}
	if (signal?.aborted) return immediate("Tool call aborted before execution");
	const tool = context.tools?.find((candidate) => candidate.name === toolCall.name);
	if (!tool) {
		const available = context.tools?.map((candidate) => candidate.name).join(", ") || "none";
		return immediate(`Tool "${toolCall.name}" not found. Available tools: ${available}.`);
	}
	try {
		const prepared = tool.prepareArguments ? tool.prepareArguments(toolCall.arguments) : toolCall.arguments;
		let args = validateToolArguments(tool, { arguments: prepared as Record<string, any> });
		if (config.beforeToolCall) {
			const before = await raceAbort(
				Promise.resolve(config.beforeToolCall({ assistantMessage, toolCall, args, context }, signal)),
				signal,
			);
			if (before?.block) {
				return immediate(before.reason || "Tool execution was blocked", before.terminate === true);
			}
			if (before?.args !== undefined) args = validateToolArguments(tool, { arguments: before.args as Record<string, any> });
		}
		if (signal?.aborted) return immediate("Tool call aborted before execution");
		return { kind: "prepared", tool, args };
	} catch (error) {
		return immediate(errorMessage(error));
	}
}

async function runPreparedToolCall(
	context: AgentContext,
	assistantMessage: AssistantMessage,
	toolCall: ToolCall,
	prepared: PreparedToolCall,
	config: AgentLoopConfig,
	signal: AbortSignal | undefined,
	emit: AgentEventSink,
): Promise<FinalizedToolCall> {
	const executed = await executePreparedToolCall(toolCall, prepared, signal, emit);
	return finalizeExecutedToolCall(context, assistantMessage, toolCall, prepared.args, executed, config, signal);
}

async function executePreparedToolCall(
	toolCall: ToolCall,
	prepared: PreparedToolCall,
	signal: AbortSignal | undefined,
	emit: AgentEventSink,
): Promise<{ result: AgentToolResult<any>; isError: boolean }> {
	// Updates count only while execute() is pending; a tool keeping its callback cannot touch a later run.
	let acceptingUpdates = true;
	const deliveredUpdates: Promise<void>[] = [];
	const onUpdate = (partialResult: AgentToolResult<any>) => {
		if (!acceptingUpdates) return;
		deliveredUpdates.push(
			Promise.resolve(
				emit({
					type: "tool_execution_update",
					toolCallId: toolCall.id,
					toolName: toolCall.name,
					args: toolCall.arguments,
					partialResult,
				}),
			),
		);
	};
	try {
		const work = Promise.resolve().then(() => prepared.tool.execute(toolCall.id, prepared.args, signal, onUpdate));
		const result = await raceAbort(work, signal, ABORT_GRACE_MS);
		return { result, isError: false };
	} catch (error) {
		if (error instanceof AbortedError) return { result: createErrorToolResult("Tool call aborted"), isError: true };
		// A tool may attach details to its error (exit code, output file) for the UI; the model sees the message.
		const result: AgentToolResult<unknown> = createErrorToolResult(errorMessage(error));
		const details = (error as { details?: unknown } | undefined)?.details;
		if (details !== undefined) result.details = details;
		return { result, isError: true };
	} finally {
		acceptingUpdates = false;
		await Promise.all(deliveredUpdates);
	}
}

async function finalizeExecutedToolCall(
	context: AgentContext,
	assistantMessage: AssistantMessage,
	toolCall: ToolCall,
	args: unknown,
	executed: { result: AgentToolResult<any>; isError: boolean },
	config: AgentLoopConfig,
	signal: AbortSignal | undefined,
): Promise<FinalizedToolCall> {
	let { result, isError } = executed;
	if (config.afterToolCall) {
		try {
			const after = await raceAbort(
				Promise.resolve(config.afterToolCall({ assistantMessage, toolCall, args, result, isError, context }, signal)),
				signal,
			);
			if (after) ({ result, isError } = applyAfterToolCall({ result, isError }, after));
		} catch (error) {
			result = createErrorToolResult(errorMessage(error));
			isError = true;
		}
	}
	return { toolCall, result, isError };
}

/** Field by field: a field afterToolCall gives replaces the whole field, no deep merge. */
export function applyAfterToolCall(
	outcome: { result: AgentToolResult<any>; isError: boolean },
	after: AfterToolCallResult,
): { result: AgentToolResult<any>; isError: boolean } {
	const { result } = outcome;
	return {
		result: {
			...result,
			content: after.content ?? result.content,
			details: after.details ?? result.details,
			terminate: after.terminate ?? result.terminate,
		},
		isError: after.isError ?? outcome.isError,
	};
}

function shouldTerminateToolBatch(finalizedCalls: FinalizedToolCall[]): boolean {
	return finalizedCalls.length > 0 && finalizedCalls.every((finalized) => finalized.result.terminate === true);
}

async function emitToolExecutionStart(toolCall: ToolCall, emit: AgentEventSink): Promise<void> {
	await emit({
		type: "tool_execution_start",
		toolCallId: toolCall.id,
		toolName: toolCall.name,
		args: toolCall.arguments,
	});
}

async function emitToolExecutionEnd(finalized: FinalizedToolCall, emit: AgentEventSink): Promise<void> {
	await emit({
		type: "tool_execution_end",
		toolCallId: finalized.toolCall.id,
		toolName: finalized.toolCall.name,
		result: finalized.result,
		isError: finalized.isError,
	});
}

/** `terminate` is a runtime hint only: it never reaches the transcript. */
function createToolResultMessage(finalized: FinalizedToolCall): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId: finalized.toolCall.id,
		toolName: finalized.toolCall.name,
		content: finalized.result.content,
		details: finalized.result.details,
		isError: finalized.isError,
		timestamp: Date.now(),
	};
}

async function emitToolResultMessage(finalized: FinalizedToolCall, emit: AgentEventSink): Promise<ToolResultMessage> {
	const message = createToolResultMessage(finalized);
	await emit({ type: "message_start", message });
	await emit({ type: "message_end", message });
	return message;
}

/**
 * Checks a model's raw tool arguments against the tool's TypeBox schema. Coerces what can be coerced ("3" → 3 for a number field), then checks.
 * The error names the tool, every failing path and the received arguments, so the model can fix its call.
 */
export function validateToolArguments(tool: Tool, toolCall: Pick<ToolCall, "arguments">): any {
	const original = toolCall.arguments ?? {};
	const converted = Value.Convert(tool.parameters, structuredClone(original));
	if (Value.Check(tool.parameters, converted)) return converted;

	const problems = [...Value.Errors(tool.parameters, converted)]
		.map((error) => `  - ${error.path || "(root)"}: ${error.message}`)
		.join("\n");
	throw new Error(
		`Validation failed for tool "${tool.name}":\n${problems}\n\nReceived arguments:\n${JSON.stringify(original, null, 2)}`,
	);
}
