// The screen's reducer: (view, event, now) => view. Pure and synchronous: the time comes in as an argument, the
// tool calls' states in events, side effects (prompting, rendering) live outside.
import { formatCount, sessionFileText, zeroUsage } from "../../core/index.js";
import type { SessionEvent } from "../../core/index.js";
import { promptItem, expandLast, type ScreenView, type UiEvent, isBusy } from "../transcript/index.js";
import { appendItems, endAssistant, flushAssistant, startAssistant, updateAssistant } from "./reduce-assistant.js";
import { flushToolBatch, showToolCall } from "./reduce-tools.js";

export type ScreenEvent = SessionEvent | UiEvent;

function roleOf(message: unknown): string | undefined {
	return message && typeof message === "object" ? (message as { role?: string }).role : undefined;
}

/** Closes whatever a run left open, so nothing streamed is lost and no row keeps spinning. */
function closeRun(view: ScreenView, now: number): ScreenView {
	return flushToolBatch(flushAssistant(view), now);
}

function compactionNotice(event: Extract<SessionEvent, { type: "compaction_end" }>): { level: "info" | "warning" | "error"; text: string } {
	if (event.error) return { level: "error", text: `Compaction failed: ${event.error}` };
	if (event.aborted) return { level: "warning", text: "Compaction stopped." };
	const before = event.tokensBefore !== undefined ? ` (${event.tokensBefore.toLocaleString("en-US")} tokens before)` : "";
	return { level: "info", text: `Compacted the conversation${before}.` };
}

/** What Ctrl+T says: thinking hidden, shown. */
const THINKING_TOGGLE_NOTICES: readonly string[] = ["Thinking hidden, one line each (ctrl+t shows it).", "Thinking shown in full (ctrl+t hides it)."];

/** Tool rows come from tool_call_changed (the session's state of each call), not from the agent's tool events. */
export function reduceView(view: ScreenView, event: ScreenEvent, now: number): ScreenView {
	if (view.leftRun && !event.type.startsWith("ui_")) return view;
	switch (event.type) {
		case "run_start":
			return { ...view, runStatus: "running" };
		case "agent_start":
			return { ...view, runStatus: "running", turn: 0, runStartedAt: now, runs: view.runs + 1 };
		case "turn_start":
			// A missing turn_end must not leave the previous batch live.
			return { ...flushToolBatch(view, now), turn: view.turn + 1 };
		case "turn_end":
			return flushToolBatch(view, now);
		case "agent_end":
			// The prompt's run may go on (an overflow's retry, queued messages): idle only at run_end.
			return { ...closeRun(view, now), runStatus: "settling" };
		case "run_end":
			return { ...closeRun(view, now), runStatus: "idle", retry: undefined, runStartedAt: undefined };

		case "message_start":
			return roleOf(event.message) === "assistant" ? startAssistant(view) : view;
		case "message_update":
			return roleOf(event.message) === "assistant" && event.assistantMessageEvent ? updateAssistant(view, event.assistantMessageEvent) : view;
		case "message_end": {
			const role = roleOf(event.message);
			if (role === "assistant") return endAssistant(view, event.message as Parameters<typeof endAssistant>[1]);
			if (role === "user") return appendItems(view, [promptItem(event.message, view.session.cwd)]);
			// Tool results are shown by the tool rows; other roles are not displayed.
			return view;
		}

		case "tool_call_changed":
			return showToolCall(view, event.call);
		case "approval_mode_changed":
			return { ...view, session: { ...view.session, approvalMode: event.mode } };
		case "background_shells_changed":
			return { ...view, session: { ...view.session, backgroundShells: event.shells.filter((shell) => shell.status === "running").length } };
		case "taint_changed":
			return { ...view, session: { ...view.session, taint: event.source } };
		case "todo_changed":
			return { ...view, todos: event.items };
		case "plan_approved":
			return appendItems(view, [{ kind: "notice", level: "info", text: "Plan approved: its steps are the todo list." }]);

		case "session_open": {
			const where = sessionFileText(event.file, event.saved, event.notSavedText);
			const opened: ScreenView = {
				...closeRun(view, now),
				session: {
					// The approval mode belongs to the policy, not to the session file: it carries over.
					approvalMode: view.session.approvalMode,
					// So are the background shells: they belong to the running loom, whichever conversation it shows.
					backgroundShells: view.session.backgroundShells,
					sessionId: event.sessionId,
					file: event.file,
					cwd: event.cwd,
					provider: event.provider,
					model: event.model,
					credential: event.credential,
					thinkingLevel: event.thinkingLevel,
					messageCount: event.messageCount,
					taint: event.taint,
				},
				usage: zeroUsage(),
				contextTokens: undefined,
				turn: 0,
				// The conversation's list at the point opened (resume, fork, rewind), none for a new one.
				todos: event.todos ?? [],
			};
			const text = openedText(event, where);
			return appendItems(opened, [{ kind: "notice", level: "info", text }]);
		}
		case "retry_scheduled":
			return {
				...view,
				retry: { attempt: event.attempt, maxRetries: event.maxRetries, reason: event.reason, until: now + Math.max(0, event.delayMs) },
			};
		case "retry_finished":
			return { ...view, retry: undefined };
		case "queue_changed":
			return { ...view, queue: { steering: [...event.steering], followUp: [...event.followUp] } };
		case "model_changed":
			// The conversation stays as it was: its size is measured against the new model's window from now on.
			return appendItems({ ...view, session: { ...view.session, provider: event.provider, model: event.model, credential: event.credential } }, [
				{ kind: "notice", level: "info", text: `Model: ${event.provider}/${event.model}` },
			]);
		case "thinking_changed":
			return appendItems({ ...view, session: { ...view.session, thinkingLevel: event.level } }, [
				{ kind: "notice", level: "info", text: `Thinking level: ${event.level}` },
			]);
		case "compaction_start":
			return { ...view, compacting: event.reason };
		case "compaction_end": {
			const notice = compactionNotice(event);
			const next: ScreenView = { ...view, compacting: undefined };
			if (!event.aborted && !event.error) next.contextTokens = undefined;
			const detail = !event.aborted && !event.error && event.summary ? { detail: event.summary } : {};
			return appendItems(next, [{ kind: "notice", ...notice, ...detail }]);
		}
		case "session_error":
			return appendItems(view, [{ kind: "notice", level: "error", text: event.message }]);

		case "ui_notice":
			return appendItems(view, [{ kind: "notice", level: event.level, text: event.text }]);
		case "ui_toggle_thinking": {
			// The transcript printer prints everything again with the new setting (see use-transcript-printer.ts),
			// without an earlier toggle's line, which no longer holds.
			const showThinking = !view.showThinking;
			const transcript = view.transcript.filter((item) => !(item.kind === "notice" && THINKING_TOGGLE_NOTICES.includes(item.text)));
			return appendItems({ ...view, showThinking, transcript }, [{ kind: "notice", level: "info", text: THINKING_TOGGLE_NOTICES[showThinking ? 1 : 0] }]);
		}
		case "ui_toggle_todos":
			return { ...view, todosCollapsed: !view.todosCollapsed };
		case "ui_leave_run":
			if (!isBusy(view)) return view;
			return appendItems({ ...closeRun(view, now), runStatus: "idle", retry: undefined, runStartedAt: undefined, leftRun: true }, [
				{ kind: "notice", level: "warning", text: "Interrupted: loom exited during the run." },
			]);
		case "ui_expand_last": {
			const expanded = expandLast(view.transcript);
			return appendItems(view, [expanded ?? { kind: "notice", level: "info", text: "Nothing to expand yet: Ctrl+O shows the latest tool output, summary or thinking in full." }]);
		}
		case "ui_item":
			return appendItems(view, [event.item]);
		case "ui_history":
			return { ...appendItems(view, event.items), sessionPrompts: event.prompts };
		case "ui_usage_baseline":
			return { ...view, usage: { ...event.usage }, contextTokens: event.contextTokens ?? view.contextTokens };
		default:
			return view;
	}
}

/** The notice a session_open leaves in the transcript, by why the session opened. */
function openedText(event: Extract<SessionEvent, { type: "session_open" }>, where: string): string {
	const messages = event.messageCount;
	const count = formatCount(messages, "message");
	switch (event.reason) {
		case "rewind":
			return `Rewound the conversation: ${count} now · ${where}`;
		case "branch":
			return `Switched branch: ${count} · ${where}`;
		case "fork": {
			const parent = event.parentSession ? `\nForked from ${event.parentSession}, which stays as it was.` : "";
			return `Forked into new session ${event.sessionId} with ${count} · ${where}${parent}`;
		}
		default:
			return messages > 0 ? `Resumed session with ${messages} messages · ${where}` : `Session ${where}`;
	}
}
