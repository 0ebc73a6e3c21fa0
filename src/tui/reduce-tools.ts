// Tool execution timeline: rows keyed by toolCallId, never by position.
// start → "preparing" (not yet validated), approval asked → "waiting" → answered → "preparing",
// update → "running", end → "done" | "error"; updates after the end are ignored. The batch moves into the transcript as one item at turn_end.
import type { AgentToolResult } from "../core/agent-types.js";
import { findTool, type NamedToolPresentation, toolSummary } from "../core/tool-definition.js";
import { textFromContent } from "./message-text.js";
import { appendItems } from "./reduce-assistant.js";
import type { ScreenView, ToolRunView } from "./view-model.js";

function withRun(view: ScreenView, run: ToolRunView): ScreenView {
	return { ...view, tools: { ...view.tools, [run.id]: run } };
}

function isSettled(run: ToolRunView): boolean {
	return run.status === "done" || run.status === "error";
}

export function startTool(
	view: ScreenView,
	toolCallId: string,
	toolName: string,
	args: unknown,
	now: number,
	tools: readonly NamedToolPresentation[],
): ScreenView {
	if (view.tools[toolCallId]) return view;
	const run: ToolRunView = {
		id: toolCallId,
		name: toolName,
		status: "preparing",
		argsPreview: toolSummary(findTool(tools, toolName), args),
		args,
		startedAt: now,
	};
	return { ...withRun(view, run), liveToolIds: [...view.liveToolIds, toolCallId] };
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

/**
 * Moves the current batch into the transcript, in source order. Rows still open (a run that ended
 * without their end event) are closed as errors: the screen must not claim they are still working.
 */
export function flushToolBatch(view: ScreenView, now: number): ScreenView {
	if (view.liveToolIds.length === 0) return view;
	const runs = view.liveToolIds
		.map((id) => view.tools[id])
		.filter((run): run is ToolRunView => run !== undefined)
		.map((run) => (isSettled(run) ? run : { ...run, status: "error" as const, resultText: "Interrupted before it finished.", endedAt: now }));
	const cleared: ScreenView = { ...view, tools: {}, liveToolIds: [] };
	return appendItems(cleared, [{ kind: "tools", turn: view.turn, runs }]);
}
