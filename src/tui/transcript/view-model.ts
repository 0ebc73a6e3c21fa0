// The screen's own view model: a projection of session events for display,
// never the agent's state. Everything here is plain data, produced only by the reducer.
import type { ThinkingLevel, CompactionReason, ApprovalMode, NoticeLevel, TodoItem, WebSearchRecord } from "../../core/index.js";
import { type UsageTotals, zeroUsage } from "../../core/index.js";

/** Idle from run_end to run_start; "settling" between an agent run's end and the prompt's run_end. */
export type RunStatus = "idle" | "running" | "settling";
/** "queued": its turn in the batch has not come; "waiting": the call waits for the user's approval. */
export type ToolStatus = "queued" | "preparing" | "waiting" | "running" | "done" | "error";

export interface ToolRunView {
	/** toolCallId: the only key; names repeat and parallel calls of one tool are common. */
	id: string;
	name: string;
	status: ToolStatus;
	/** One-line summary of the model's raw, unvalidated arguments (the tool's own, or compact JSON). */
	argsPreview: string;
	/** The model's raw arguments, for the tool's result lines. */
	args?: unknown;
	/** Text of the latest partial result. */
	progressText?: string;
	/** Final, finalized result text. */
	resultText?: string;
	/** The tool's own details, as sent: only its definition knows them, and reads them defensively. */
	details?: unknown;
	startedAt: number;
	endedAt?: number;
	/** Loaded from a session file, where no durations are kept: no elapsed time is shown. */
	untimed?: boolean;
}

export type { NoticeLevel };

/** Finished things, printed once into the terminal's scrollback (see transcript-text.ts), in order. */
export type TranscriptItem =
	| {
			kind: "user";
			id: string;
			/** The prompt as typed. */
			text: string;
			/** The files its @-mentions attached, "path (size)". */
			attached?: string[];
	  }
	| {
			kind: "assistant";
			id: string;
			/** Every chunk of one assistant message shares this id (a long answer is moved out in paragraphs). */
			messageId: string;
			turn: number;
			text: string;
			/** Follows the chunk before it with no blank line between (the chunk before ended with a code fence). */
			continues?: boolean;
	  }
	| { kind: "thinking"; id: string; messageId: string; turn: number; text: string; redacted: boolean }
	/** What the provider's web search looked for and the pages an answer rests on, numbered, under the answer. */
	| { kind: "sources"; id: string; search: WebSearchRecord }
	| { kind: "tools"; id: string; turn: number; runs: ToolRunView[] }
	| {
			kind: "notice";
			id: string;
			level: NoticeLevel;
			text: string;
			/** What Ctrl+O shows in full (a compaction's summary). */
			detail?: string;
	  }
	/** A shell command the user ran from the editor (`!cmd`), with its output (cut; Ctrl+O shows it whole). */
	| { kind: "shell"; id: string; command: string; output: string; exitCode: number | null; forContext: boolean }
	/** Something shown again in full by Ctrl+O, under a title saying what it is. */
	| { kind: "expanded"; id: string; title: string; text: string };

/** A transcript item before the reducer gives it an id. */
export type NewTranscriptItem = TranscriptItem extends infer T ? (T extends { id: string } ? Omit<T, "id"> : never) : never;

/** The assistant message being streamed: only the part not yet moved into the transcript. */
export interface ActiveAssistant {
	messageId: string;
	turn: number;
	/** Thinking not yet moved into the transcript. */
	thinking: string;
	/** Any thinking streamed at all (otherwise the final message's thinking is used). */
	thinkingSeen: boolean;
	/** Text already moved into the transcript, kept to reconcile with the final message. */
	committedText: string;
	/** Uncommitted text: starts outside any code fence. */
	tail: string;
	/** Scan position inside `tail` (start of the first line not yet examined). */
	scanned: number;
	/** The fence marker (``` or ~~~, possibly longer) open at `scanned`, if any. */
	openFence?: string;
	/** The open fence's opening line was indented. */
	fenceIndented?: boolean;
	/** The last chunk moved out ended with a closing fence: `tail` follows it with no blank line between. */
	continues?: boolean;
	/** Text blocks seen, so later blocks are joined with a newline exactly like the final message. */
	textBlocks: number;
	/** A tool call the model is still writing (its arguments can be long, e.g. a whole file). */
	pendingToolCall?: { name: string; chars: number };
}

export interface RetryView {
	/** Which retry this is, from 1 (the request's attempt number minus one). */
	attempt: number;
	maxRetries: number;
	reason: string;
	/** Epoch ms when the next attempt starts. */
	until: number;
}

export interface SessionInfoView {
	sessionId?: string;
	file?: string;
	cwd?: string;
	provider?: string;
	model?: string;
	/** The login the model's requests are signed in with ("ChatGPT login"); undefined for an API key. */
	credential?: string;
	thinkingLevel?: ThinkingLevel;
	messageCount: number;
	/** Undefined when no approval policy is installed. */
	approvalMode?: ApprovalMode;
	/** Background shells running (the footer counts them). */
	backgroundShells?: number;
	/** What brought untrusted text (a fetched page) into the conversation, until /trust-web clears it. */
	taint?: string;
}

export interface ScreenView {
	runStatus: RunStatus;
	/** Turn within the current run (reset at agent_start). */
	turn: number;
	runStartedAt?: number;
	/** Runs started so far (agent_start count): tells whether a prompt got as far as starting. */
	runs: number;
	transcript: TranscriptItem[];
	activeAssistant?: ActiveAssistant;
	/** Tool runs of the current batch, by toolCallId. */
	tools: Record<string, ToolRunView>;
	/** Ids of the current batch in start (= source) order. */
	liveToolIds: string[];
	usage: UsageTotals;
	/** Tokens in the context after the latest assistant message, when known. */
	contextTokens?: number;
	retry?: RetryView;
	queue: { steering: string[]; followUp: string[] };
	compacting?: CompactionReason;
	session: SessionInfoView;
	/** Show thinking in full in the transcript (otherwise a one-line summary). */
	showThinking: boolean;
	/** The screen is leaving mid-run: what the session still sends (the aborted run's end) is not shown. */
	leftRun?: boolean;
	/** The prompts of the session opened last with a conversation (-c, -r, /resume), for the editor's history. */
	sessionPrompts: readonly string[];
	/** The session's todo list (the latest todo_changed, or the one a session_open brought). */
	todos: readonly TodoItem[];
	/** Ctrl+X folded the list above the editor to one line. */
	todosCollapsed: boolean;
	/** Source of transcript ids; keeps the reducer pure. */
	nextId: number;
}

/** Events the screen itself feeds into the reducer, next to the session's. */
export type UiEvent =
	| { type: "ui_notice"; level: NoticeLevel; text: string }
	| { type: "ui_toggle_thinking" }
	/** Ctrl+X: fold or unfold the todo list above the editor. */
	| { type: "ui_toggle_todos" }
	/** The screen leaves during a run: what was live goes into the transcript, with a line saying so. */
	| { type: "ui_leave_run" }
	/** Ctrl+O: print the latest tool output, compaction summary, thinking or shell output again, in full. */
	| { type: "ui_expand_last" }
	/** A transcript item the screen made itself (a shell command's output). */
	| { type: "ui_item"; item: NewTranscriptItem }
	/** Totals already in a resumed session, read from the session when it opens. */
	| { type: "ui_usage_baseline"; usage: UsageTotals; contextTokens?: number }
	/** The conversation of a resumed session, to show before anything new, and its prompts. */
	| { type: "ui_history"; items: NewTranscriptItem[]; prompts: readonly string[] };

/** A prompt's run is on, from the session's run_start to its run_end: Enter steers it. */
export function isBusy(view: Pick<ScreenView, "runStatus">): boolean {
	return view.runStatus !== "idle";
}

export function initialView(session: Partial<SessionInfoView> = {}): ScreenView {
	return {
		runStatus: "idle",
		turn: 0,
		runs: 0,
		transcript: [],
		tools: {},
		liveToolIds: [],
		usage: zeroUsage(),
		queue: { steering: [], followUp: [] },
		session: { messageCount: 0, ...session },
		showThinking: false,
		sessionPrompts: [],
		todos: [],
		todosCollapsed: false,
		nextId: 1,
	};
}
