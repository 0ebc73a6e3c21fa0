// Tool execution timeline: rows keyed by toolCallId, never by position.
// The assistant message's end → "queued" (every call of the batch, in the model's order), start → "preparing"
// (validation, the before-chain), approval asked → "waiting" → answered → "preparing", execute() began
// (tool_execution_running) or an update → "running", end → "done" | "error"; updates after the end are ignored.
// The batch moves into the transcript as one item at turn_end.
import type { AgentToolResult, AssistantMessage } from "../../core/index.js";
import { textFromContent, findTool, type NamedToolPresentation, toolSummary } from "../../core/index.js";
import { appendItems } from "./reduce-assistant.js";
import type { ScreenView, ToolRunView } from "../transcript/index.js";

function withRun(view: ScreenView, run: ToolRunView): ScreenView {
	return { ...view, tools: { ...view.tools, [run.id]: run } };
}

function isSettled(run: ToolRunView): boolean {
	return run.status === "done" || run.status === "error";
}

function newRun(toolCallId: string, toolName: string, args: unknown, status: ToolRunView["status"], now: number, tools: readonly NamedToolPresentation[]): ToolRunView {
	return { id: toolCallId, name: toolName, status, argsPreview: toolSummary(findTool(tools, toolName), args), args, startedAt: now };
}

/** The calls of an assistant message the loop will run (it runs none after an error or an abort), queued. */
export function queueTools(view: ScreenView, message: AssistantMessage, now: number, tools: readonly NamedToolPresentation[]): ScreenView {
	if (message.stopReason === "error" || message.stopReason === "aborted" || !Array.isArray(message.content)) return view;
	let next = view;
	for (const block of message.content) {
		if (block?.type !== "toolCall" || typeof block.id !== "string" || next.tools[block.id]) continue;
		const run = newRun(block.id, typeof block.name === "string" ? block.name : "tool", block.arguments, "queued", now, tools);
		next = { ...withRun(next, run), liveToolIds: [...next.liveToolIds, block.id] };
	}
	return next;
}

export function startTool(
	view: ScreenView,
	toolCallId: string,
	toolName: string,
	args: unknown,
	now: number,
	tools: readonly NamedToolPresentation[],
): ScreenView {
	const queued = view.tools[toolCallId];
	if (queued?.status === "queued") return withRun(view, { ...queued, status: "preparing", startedAt: now });
	if (queued) return view;
	return { ...withRun(view, newRun(toolCallId, toolName, args, "preparing", now, tools)), liveToolIds: [...view.liveToolIds, toolCallId] };
}

/** execute() began: running, whether or not the tool reports progress. */
export function runTool(view: ScreenView, toolCallId: string): ScreenView {
	const run = view.tools[toolCallId];
	if (!run || run.status !== "preparing") return view;
	return withRun(view, { ...run, status: "running" });
}

export function updateTool(view: ScreenView, toolCallId: string, partial: AgentToolResult<unknown> | undefined): ScreenView {
	const run = view.tools[toolCallId];
	if (!run || isSettled(run)) return view;
	const details = partial?.details;
	return withRun(view, {
		...run,
		status: "running",
		progressText: textFromContent(partial?.content),
		...(details !== undefined ? { details } : {}),
	});
}

/** The call waits for the user's approval (true), or no longer does (false). */
export function awaitApproval(view: ScreenView, toolCallId: string, waiting: boolean): ScreenView {
	const run = view.tools[toolCallId];
	if (!run || isSettled(run) || (run.status === "waiting") === waiting) return view;
	return withRun(view, { ...run, status: waiting ? "waiting" : "preparing" });
}

export function endTool(view: ScreenView, toolCallId: string, result: AgentToolResult<unknown> | undefined, isError: boolean, now: number): ScreenView {
	const run = view.tools[toolCallId];
	if (!run || isSettled(run)) return view;
	const details = result?.details;
	const { details: _old, ...rest } = run;
	return withRun(view, {
		...rest,
		status: isError ? "error" : "done",
		resultText: textFromContent(result?.content),
		...(details !== undefined ? { details } : {}),
		endedAt: now,
	});
}

function unfinishedText(run: ToolRunView): string {
	return run.status === "queued" ? "Not run: the run ended before its turn." : "Interrupted before it finished.";
}

/**
 * Moves the current batch into the transcript, in source order. Rows still open (a run that ended
 * without their end event) are closed as errors: the screen must not claim they are still working.
 */
export function flushToolBatch(view: ScreenView, now: number): ScreenView {
	if (view.liveToolIds.length === 0) return view;
	const runs = view.liveToolIds
		.map((id) => view.tools[id])
		.filter((run): run is ToolRunView => run !== undefined)
		.map((run) => (isSettled(run) ? run : { ...run, status: "error" as const, resultText: unfinishedText(run), endedAt: now, untimed: run.status === "queued" || run.untimed }));
	const cleared: ScreenView = { ...view, tools: {}, liveToolIds: [] };
	return appendItems(cleared, [{ kind: "tools", turn: view.turn, runs }]);
}
