// Tool rows, keyed by toolCallId, never by position: each row is drawn from the session's state of its call
// (tool_call_changed, see core/session/tool-calls.ts), which says queued, preparing, awaiting approval, running,
// done, error or blocked, with the call's timings and results. The row's time leaves out every wait for approval.
// The batch moves into the transcript as one item at turn_end.
import type { ToolCallState } from "../../core/index.js";
import { isSettledCall, textFromContent } from "../../core/index.js";
import { appendItems } from "./reduce-assistant.js";
import type { ScreenView, ToolRunView, ToolStatus } from "../transcript/index.js";

function withRun(view: ScreenView, run: ToolRunView): ScreenView {
	return { ...view, tools: { ...view.tools, [run.id]: run } };
}

function isSettled(run: ToolRunView): boolean {
	return run.status === "done" || run.status === "error";
}

function rowStatus(call: ToolCallState): ToolStatus {
	switch (call.status) {
		case "awaiting_approval":
			return "waiting";
		case "blocked":
			return "error";
		default:
			return call.status;
	}
}

/** The row a call's state draws: its time runs from execute()'s start, or from its preparation less any approval wait. */
function runView(call: ToolCallState): ToolRunView {
	const result = call.result ?? call.partialResult;
	const details = result?.details;
	const preparedSince = call.preparingAt === undefined ? undefined : call.preparingAt + call.approvalWaitMs;
	const startedAt = call.startedAt ?? preparedSince ?? call.queuedAt;
	return {
		id: call.id,
		name: call.name,
		status: rowStatus(call),
		argsPreview: call.description.summary,
		args: call.args,
		...(call.partialResult && !call.result ? { progressText: textFromContent(call.partialResult.content) } : {}),
		...(call.result ? { resultText: textFromContent(call.result.content) } : {}),
		...(details !== undefined ? { details } : {}),
		startedAt,
		...(call.endedAt !== undefined ? { endedAt: call.endedAt } : {}),
		// A call that never reached its preparation (the run ended before its turn) has no time to show.
		...(isSettledCall(call) && preparedSince === undefined ? { untimed: true } : {}),
	};
}

/** A call's new state: its live row is (re)drawn; a call first heard of joins the batch, unless already settled. */
export function showToolCall(view: ScreenView, call: ToolCallState): ScreenView {
	const known = view.tools[call.id] !== undefined;
	if (!known && isSettledCall(call)) return view;
	const next = withRun(view, runView(call));
	return known ? next : { ...next, liveToolIds: [...view.liveToolIds, call.id] };
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
