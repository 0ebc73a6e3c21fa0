import { beforeEach, describe, expect, it } from "vitest";
import type { SessionEvent } from "../../../src/core/session/session-events.js";
import { type ScreenEvent, reduceView } from "../../../src/tui/screen/reducer.js";
import { type ScreenView, type TranscriptItem, initialView } from "../../../src/tui/transcript/view-model.js";
import {
	assistant,
	streamedAssistant,
	textDelta,
	thinkingDelta,
	toolCall,
	toolEnd,
	toolResultMessage,
	toolStart,
	toolUpdate,
	usage,
	userEnd,
} from "../events.js";
import { ToolCallStates } from "../../../src/core/session/tool-calls.js";
import { builtinTools } from "../../support/builtin-tools.js";
import { toolRowHeader } from "../../../src/tui/transcript/tool-row-text.js";
import { transcriptText } from "../../../src/tui/transcript/transcript-text.js";
import { stripVTControlCharacters as stripAnsi } from "node:util";

let clock = 0;
/** The session's tool-call states, as AgentSession keeps them: fed each event before the screen hears it. */
let calls = new ToolCallStates(() => builtinTools, () => clock);
beforeEach(() => {
	calls = new ToolCallStates(() => builtinTools, () => clock);
});

/**
 * Replays events as a session delivers them (each event's tool_call_changed first) with a clock that advances
 * 100 ms per event, starting at 1000.
 */
function replay(events: ScreenEvent[], view: ScreenView = initialView(), start = 1000): ScreenView {
	clock = start;
	for (const event of events) {
		const changes = event.type.startsWith("ui_") ? [] : calls.reduce(event as SessionEvent);
		for (const next of [...changes, event]) view = reduceView(view, next, clock);
		clock += 100;
	}
	return view;
}

function kinds(view: ScreenView): string[] {
	return view.transcript.map((item) => item.kind);
}

function ofKind<K extends TranscriptItem["kind"]>(view: ScreenView, kind: K): Extract<TranscriptItem, { kind: K }>[] {
	return view.transcript.filter((item): item is Extract<TranscriptItem, { kind: K }> => item.kind === kind);
}

function deepFreeze<T>(value: T): T {
	if (value && typeof value === "object" && !Object.isFrozen(value)) {
		Object.freeze(value);
		for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
	}
	return value;
}

describe("run lifecycle", () => {
	it("agent_start marks the run running and restarts the turn count", () => {
		const view = replay([{ type: "agent_start" }, { type: "turn_start" }, { type: "turn_start" }]);
		expect(view.runStatus).toBe("running");
		expect(view.turn).toBe(2);
		const again = replay([{ type: "agent_start" }], view);
		expect(again.turn).toBe(0);
		expect(again.runStartedAt).toBe(1000);
	});

	it("agent_end settles the run; only the session's run_end makes it idle", () => {
		const ended = replay([{ type: "run_start" }, { type: "agent_start" }, { type: "agent_end", messages: [] }]);
		expect(ended.runStatus).toBe("settling");
		expect(replay([{ type: "run_end", status: "done" }], ended).runStatus).toBe("idle");
	});

	it("stays busy between the agent runs of one prompt (an overflow's compaction, then the retry) until run_end", () => {
		const started = replay([{ type: "run_start" }]);
		expect(started.runStatus).toBe("running");
		const between = replay(
			[{ type: "agent_start" }, { type: "agent_end", messages: [] }, { type: "compaction_start", reason: "overflow" }, { type: "compaction_end", reason: "overflow", aborted: false }],
			started,
		);
		expect(between.runStatus).toBe("settling");
		const retried = replay([{ type: "agent_start" }], between);
		expect(retried.runStatus).toBe("running");
		const ended = replay([{ type: "agent_end", messages: [] }, { type: "run_end", status: "done" }], retried);
		expect(ended.runStatus).toBe("idle");
		expect(ended.runStartedAt).toBeUndefined();
	});

	it("never mutates the view it is given", () => {
		const view = deepFreeze(replay([{ type: "agent_start" }, { type: "turn_start" }, toolStart("t1", "bash", { command: "ls" })]));
		const events: ScreenEvent[] = [
			toolUpdate("t1", "bash", "a"),
			toolEnd("t1", "bash", "a\nb"),
			...streamedAssistant(["x\n\ny"]),
			{ type: "turn_end", message: assistant("x"), toolResults: [] },
			{ type: "agent_end", messages: [] },
		];
		expect(() => replay(events, view)).not.toThrow();
	});
});

describe("assistant messages", () => {
	it("accumulates text deltas in the active message and commits the final message at message_end", () => {
		let view = replay([{ type: "agent_start" }, { type: "turn_start" }, { type: "message_start", message: assistant([]) }, textDelta("Hel"), textDelta("lo")]);
		expect(view.activeAssistant?.tail).toBe("Hello");
		expect(view.transcript).toHaveLength(0);
		view = replay([{ type: "message_end", message: assistant("Hello", { usage: usage(120, 30, 0.002) }) }], view);
		expect(view.activeAssistant).toBeUndefined();
		expect(ofKind(view, "assistant").map((item) => item.text)).toEqual(["Hello"]);
		expect(view.usage).toMatchObject({ input: 120, output: 30, cost: 0.002 });
		expect(view.contextTokens).toBe(150);
	});

	it("uses the final message when the provider sent no deltas", () => {
		const view = replay([{ type: "message_start", message: assistant([]) }, { type: "message_end", message: assistant("Direct answer") }]);
		expect(ofKind(view, "assistant").map((item) => item.text)).toEqual(["Direct answer"]);
	});

	it("keeps several assistant messages of one run apart", () => {
		const view = replay([
			{ type: "agent_start" },
			{ type: "turn_start" },
			...streamedAssistant(["Let me look."], assistant([{ type: "text", text: "Let me look." }, toolCall("t1", "read", { path: "a.txt" })])),
			toolStart("t1", "read", { path: "a.txt" }),
			toolEnd("t1", "read", "contents"),
			...toolResultMessage("t1", "read", "contents"),
			{ type: "turn_end", message: assistant("Let me look."), toolResults: [] },
			{ type: "turn_start" },
			...streamedAssistant(["It says ", "contents."]),
			{ type: "turn_end", message: assistant("It says contents."), toolResults: [] },
			{ type: "agent_end", messages: [] },
		]);
		const texts = ofKind(view, "assistant");
		expect(texts.map((item) => item.text)).toEqual(["Let me look.", "It says contents."]);
		expect(new Set(texts.map((item) => item.messageId)).size).toBe(2);
		expect(texts.map((item) => item.turn)).toEqual([1, 2]);
		expect(kinds(view)).toEqual(["assistant", "tools", "assistant"]);
	});

	it("streams thinking separately and puts it before the text it led to", () => {
		let view = replay([{ type: "message_start", message: assistant([]) }, thinkingDelta("Consider "), thinkingDelta("the file.")]);
		expect(view.activeAssistant?.thinking).toBe("Consider the file.");
		view = replay([textDelta("Answer."), { type: "message_end", message: assistant([{ type: "thinking", thinking: "Consider the file." }, { type: "text", text: "Answer." }]) }], view);
		expect(kinds(view)).toEqual(["thinking", "assistant"]);
		expect(ofKind(view, "thinking")[0].text).toBe("Consider the file.");
	});

	it("takes thinking from the final message when none was streamed, and marks redacted thinking", () => {
		const view = replay([
			{ type: "message_start", message: assistant([]) },
			{ type: "message_end", message: assistant([{ type: "thinking", thinking: "", redacted: true }, { type: "text", text: "ok" }]) },
		]);
		expect(ofKind(view, "thinking")[0]).toMatchObject({ redacted: true });
	});

	it("moves finished paragraphs of a long answer into the transcript, never inside a code fence", () => {
		let view = replay([{ type: "message_start", message: assistant([]) }, textDelta("First paragraph.\n\nSecond "), textDelta("paragraph.\n\n```js\nconst a = 1;\n\nconst b = 2;\n")]);
		expect(ofKind(view, "assistant").map((item) => item.text)).toEqual(["First paragraph.\n\n", "Second paragraph.\n\n"]);
		// The blank line inside the fence does not cut it.
		expect(view.activeAssistant?.tail).toBe("```js\nconst a = 1;\n\nconst b = 2;\n");
		view = replay([textDelta("```\n\nDone.")], view);
		expect(view.activeAssistant?.tail).toBe("Done.");
		const full = "First paragraph.\n\nSecond paragraph.\n\n```js\nconst a = 1;\n\nconst b = 2;\n```\n\nDone.";
		view = replay([{ type: "message_end", message: assistant(full) }], view);
		const chunks = ofKind(view, "assistant");
		expect(chunks.map((item) => item.text).join("")).toBe(full);
		expect(new Set(chunks.map((item) => item.messageId)).size).toBe(1);
	});

	it("moves a code block out of the live area when its fence closes; the chunks print as the whole answer does", () => {
		const full = "Look:\n```ts\nconst a = 1;\n```\nThen this.\n\n- a list\n- goes on";
		let view = replay([{ type: "message_start", message: assistant([]) }, textDelta("Look:\n```ts\nconst a = 1;\n")]);
		expect(ofKind(view, "assistant")).toEqual([]);
		view = replay([textDelta("```\nThen")], view);
		expect(ofKind(view, "assistant").map((item) => item.text)).toEqual(["Look:\n```ts\nconst a = 1;\n```\n"]);
		expect(view.activeAssistant?.tail).toBe("Then");
		view = replay([textDelta(" this.\n\n- a list\n- goes on")], view);
		// The list is not finished until a blank line follows it.
		expect(view.activeAssistant?.tail).toBe("- a list\n- goes on");
		view = replay([{ type: "message_end", message: assistant(full) }], view);
		const chunks = ofKind(view, "assistant");
		expect(chunks.map((item) => item.text).join("")).toBe(full);
		expect(chunks.map((item) => item.continues === true)).toEqual([false, true, false]);
		const whole: TranscriptItem = { kind: "assistant", id: "x", messageId: "x", turn: 1, text: full };
		expect(transcriptText(chunks, 80, false)).toBe(transcriptText([whole], 80, false));
	});

	it("joins text blocks with a newline like the final message does", () => {
		const view = replay([
			{ type: "message_start", message: assistant([]) },
			textDelta("one"),
			{ type: "message_update", message: assistant([]), assistantMessageEvent: { type: "text_start", contentIndex: 2, partial: assistant([]) } },
			textDelta("two", 2),
		]);
		expect(view.activeAssistant?.tail).toBe("one\ntwo");
	});

	it("shows a tool call the model is still writing", () => {
		const partial = assistant([toolCall("t1", "write", {})]);
		let view = replay([
			{ type: "message_start", message: assistant([]) },
			{ type: "message_update", message: partial, assistantMessageEvent: { type: "toolcall_start", contentIndex: 0, partial } },
			{ type: "message_update", message: partial, assistantMessageEvent: { type: "toolcall_delta", contentIndex: 0, delta: '{"path":', partial } },
		]);
		expect(view.activeAssistant?.pendingToolCall).toEqual({ name: "write", chars: 8 });
		view = replay([{ type: "message_update", message: partial, assistantMessageEvent: { type: "toolcall_end", contentIndex: 0, toolCall: toolCall("t1", "write", {}), partial } }], view);
		expect(view.activeAssistant?.pendingToolCall).toBeUndefined();
	});

	it("Ctrl+T shows or hides thinking for the whole transcript, and says which", () => {
		const withThinking = replay([{ type: "message_end", message: assistant([{ type: "thinking", thinking: "Deep thought." }, { type: "text", text: "42" }]) }]);
		const shown = replay([{ type: "ui_toggle_thinking" }], withThinking);
		expect(shown.showThinking).toBe(true);
		// Nothing is copied: the transcript is printed again with the thinking in full.
		expect(kinds(shown)).toEqual(["thinking", "assistant", "notice"]);
		expect(shown.transcript.at(-1)).toMatchObject({ level: "info", text: "Thinking shown in full (ctrl+t hides it)." });
		const hidden = replay([{ type: "ui_toggle_thinking" }], shown);
		expect(hidden.showThinking).toBe(false);
		expect(hidden.transcript.at(-1)).toMatchObject({ level: "info", text: "Thinking hidden, one line each (ctrl+t shows it)." });
	});

	it("reports an error, an interruption and a cut-off answer as notices", () => {
		const view = replay([
			{ type: "message_end", message: assistant("", { stopReason: "error", errorMessage: "429 rate limited" }) },
			{ type: "message_end", message: assistant("partial", { stopReason: "aborted" }) },
			{ type: "message_end", message: assistant("long", { stopReason: "length" }) },
		]);
		expect(ofKind(view, "notice").map((item) => [item.level, item.text])).toEqual([
			["error", "429 rate limited"],
			["warning", "Interrupted."],
			["warning", "The answer was cut off at the output token limit: say \"continue\" for the rest."],
		]);
		expect(ofKind(view, "assistant").map((item) => item.text)).toEqual(["partial", "long"]);
	});

	it("adds user prompts (including delivered steering) but not tool result messages", () => {
		const view = replay([userEnd("fix the bug"), ...toolResultMessage("t1", "bash", "ok"), userEnd("also add a test")]);
		expect(view.transcript.map((item) => (item.kind === "user" ? item.text : item.kind))).toEqual(["fix the bug", "also add a test"]);
	});
});

describe("tool runs", () => {
	const batchStart: ScreenEvent[] = [{ type: "agent_start" }, { type: "turn_start" }];

	it("tool_execution_start creates a preparing row with a preview of the raw arguments", () => {
		const view = replay([...batchStart, toolStart("call-1", "bash", { command: "npm test\n  --watch=false" })]);
		expect(view.tools["call-1"]).toMatchObject({ id: "call-1", name: "bash", status: "preparing", argsPreview: "npm test --watch=false", startedAt: 1200 });
		expect(view.liveToolIds).toEqual(["call-1"]);
	});

	it("tool_execution_update marks the row running with the latest progress text", () => {
		const view = replay([...batchStart, toolStart("c", "bash", { command: "make" }), toolUpdate("c", "bash", "step 1"), toolUpdate("c", "bash", "step 1\nstep 2")]);
		expect(view.tools.c).toMatchObject({ status: "running", progressText: "step 1\nstep 2" });
	});

	it("tool_execution_end records the finalized result, the tool's own details as sent and the end time", () => {
		const args = { path: "src/a.ts", oldText: "a", newText: "b" };
		const details = { diff: "-a\n+b", firstChangedLine: 3, extra: { nested: true } };
		const view = replay([...batchStart, toolStart("e", "edit", args), toolEnd("e", "edit", "Edited src/a.ts", false, details)]);
		expect(view.tools.e).toMatchObject({ status: "done", resultText: "Edited src/a.ts", details, startedAt: 1200, endedAt: 1300, args, argsPreview: "src/a.ts" });
	});

	it("marks a failed call as error from isError alone, whatever the text says", () => {
		const view = replay([...batchStart, toolStart("a", "bash", { command: "x" }), toolStart("b", "bash", { command: "y" }), toolEnd("a", "bash", "no error here", true), toolEnd("b", "bash", "error: but fine", false)]);
		expect(view.tools.a.status).toBe("error");
		expect(view.tools.b.status).toBe("done");
	});

	it("shows parallel completion order: each row changes when its own end arrives, rows stay in source order", () => {
		let view = replay([...batchStart, toolStart("tool-1", "read", { path: "a" }), toolStart("tool-2", "read", { path: "b" }), toolEnd("tool-2", "read", "B")]);
		expect(view.tools["tool-2"].status).toBe("done");
		expect(view.tools["tool-1"].status).toBe("preparing");
		expect(view.liveToolIds).toEqual(["tool-1", "tool-2"]);
		view = replay([toolEnd("tool-1", "read", "A")], view, 5000);
		expect(view.tools["tool-1"]).toMatchObject({ status: "done", resultText: "A", endedAt: 5000 });
		expect(view.tools["tool-2"]).toMatchObject({ status: "done", resultText: "B" });
		expect(view.tools["tool-2"].endedAt).toBeLessThan(view.tools["tool-1"].endedAt ?? 0);
	});

	it("keeps two calls of the same tool apart by id", () => {
		const view = replay([...batchStart, toolStart("x1", "bash", { command: "sleep 2" }), toolStart("x2", "bash", { command: "echo hi" }), toolUpdate("x2", "bash", "hi"), toolEnd("x2", "bash", "hi")]);
		expect(view.tools.x1).toMatchObject({ status: "preparing", argsPreview: "sleep 2" });
		expect(view.tools.x2).toMatchObject({ status: "done", argsPreview: "echo hi", resultText: "hi" });
	});

	it("takes an immediate failure from preparing straight to error without running", () => {
		const statuses: string[] = [];
		let view = replay(batchStart);
		for (const event of [toolStart("t1", "nope", { a: 1 }), toolEnd("t1", "nope", "Tool nope not found", true), toolStart("t2", "read", { path: "x" })]) {
			view = replay([event], view, 2000);
			if (view.tools.t1) statuses.push(view.tools.t1.status);
		}
		expect(statuses).toEqual(["preparing", "error", "error"]);
		expect(view.tools.t1.resultText).toBe("Tool nope not found");
		expect(view.tools.t2.status).toBe("preparing");
	});

	it("ignores updates and ends that arrive after a row ended, and events for unknown ids", () => {
		const ended = replay([...batchStart, toolStart("t", "bash", { command: "x" }), toolEnd("t", "bash", "final")]);
		expect(replay([toolUpdate("t", "bash", "late")], ended, 9000)).toBe(ended);
		expect(replay([toolEnd("t", "bash", "again", true)], ended, 9000)).toBe(ended);
		expect(replay([toolUpdate("ghost", "bash", "?")], ended, 9000)).toBe(ended);
		expect(replay([toolStart("t", "bash", { command: "dup" })], ended, 9000)).toBe(ended);
	});

	it("moves the batch into the transcript at turn_end, in source order, as one item", () => {
		const view = replay([
			...batchStart,
			toolStart("1", "read", { path: "a" }),
			toolStart("2", "read", { path: "b" }),
			toolEnd("2", "read", "B"),
			toolEnd("1", "read", "A"),
			...toolResultMessage("1", "read", "A"),
			...toolResultMessage("2", "read", "B"),
			{ type: "turn_end", message: assistant(""), toolResults: [] },
		]);
		expect(view.liveToolIds).toEqual([]);
		expect(view.tools).toEqual({});
		const batches = ofKind(view, "tools");
		expect(batches).toHaveLength(1);
		expect(batches[0].runs.map((run) => [run.id, run.resultText])).toEqual([
			["1", "A"],
			["2", "B"],
		]);
		// Late events for a batch already moved are ignored too.
		expect(replay([toolUpdate("1", "read", "late")], view, 1)).toBe(view);
	});

	it("draws rows from the session's call states only: a tool event without one adds no row", () => {
		const bare = [...batchStart, toolStart("t1", "bash", { command: "ls" })].reduce((view, event) => reduceView(view, event, 0), initialView());
		expect(bare.tools).toEqual({});
		expect(bare.liveToolIds).toEqual([]);
	});

	it("queues every call of an assistant message when it ends, in the model's order, before any starts", () => {
		const message = assistant([toolCall("q1", "read", { path: "a.txt" }), toolCall("q2", "bash", { command: "ls" })], { stopReason: "toolUse" });
		const view = replay([...batchStart, { type: "message_start", message: assistant([]) }, { type: "message_end", message }]);
		expect(view.liveToolIds).toEqual(["q1", "q2"]);
		expect([view.tools.q1.status, view.tools.q2.status]).toEqual(["queued", "queued"]);
		expect(view.tools.q2.argsPreview).toBe("ls");
		const flushed = replay([{ type: "agent_end", messages: [] }], view);
		expect(ofKind(flushed, "tools")[0].runs.map((run) => [run.status, run.resultText, run.untimed])).toEqual([
			["error", "Not run: the run ended before its turn.", true],
			["error", "Not run: the run ended before its turn.", true],
		]);
	});

	it("closes rows still open when the run ends, instead of leaving them spinning", () => {
		const view = replay([...batchStart, toolStart("1", "bash", { command: "sleep 100" }), { type: "agent_end", messages: [] }]);
		const run = ofKind(view, "tools")[0].runs[0];
		expect(run.status).toBe("error");
		expect(run.resultText).toMatch(/Interrupted/);
	});
});

describe("session events", () => {
	const open: SessionEvent = { type: "session_open", sessionId: "s1", file: "/tmp/s1.jsonl", cwd: "/work", provider: "anthropic", model: "claude-x", thinkingLevel: "medium", messageCount: 0 };

	it("session_open records the session and says where it is saved", () => {
		const view = replay([open]);
		expect(view.session).toEqual({ sessionId: "s1", file: "/tmp/s1.jsonl", cwd: "/work", provider: "anthropic", model: "claude-x", thinkingLevel: "medium", messageCount: 0 });
		expect(ofKind(view, "notice")[0].text).toContain("/tmp/s1.jsonl");
		const resumed = replay([{ ...open, messageCount: 12 }]);
		expect(ofKind(resumed, "notice")[0].text).toMatch(/Resumed session with 12 messages/);
	});

	it("session_open of a new session says its file appears with the first message", () => {
		expect(ofKind(replay([{ ...open, saved: false }]), "notice")[0].text).toBe("Session /tmp/s1.jsonl (created with the first message)");
		expect(ofKind(replay([{ ...open, saved: true }]), "notice")[0].text).toBe("Session /tmp/s1.jsonl");
		expect(ofKind(replay([{ ...open, file: undefined, saved: false }]), "notice")[0].text).toBe("Session not saved");
		// The session's creator words it (the command line names its flag).
		expect(ofKind(replay([{ ...open, file: undefined, saved: false, notSavedText: "not saved (--no-session)" }]), "notice")[0].text).toBe("Session not saved (--no-session)");
	});

	it("session_open of a fork names the new session's id and file and the session it came from", () => {
		const fork: SessionEvent = { ...open, reason: "fork", sessionId: "7faf9665-f23b", file: "/s/new.jsonl", saved: true, parentSession: "/s/old.jsonl", messageCount: 4 };
		expect(ofKind(replay([fork]), "notice")[0].text).toBe("Forked into new session 7faf9665-f23b with 4 messages · /s/new.jsonl\nForked from /s/old.jsonl, which stays as it was.");
		const empty = { ...fork, messageCount: 0, saved: false };
		expect(ofKind(replay([empty]), "notice")[0].text).toBe(
			"Forked into new session 7faf9665-f23b with 0 messages · /s/new.jsonl (created with the first message)\nForked from /s/old.jsonl, which stays as it was.",
		);
	});

	it("session_open of a new session resets the totals", () => {
		const used = replay([{ type: "message_end", message: assistant("x", { usage: usage(10, 5, 0.1) }) }]);
		expect(used.usage.input).toBe(10);
		const reset = replay([open], used);
		expect(reset.usage).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 });
		expect(reset.contextTokens).toBeUndefined();
		const baseline = replay([{ type: "ui_usage_baseline", usage: { input: 5, output: 6, cacheRead: 7, cacheWrite: 8, cost: 1.5 }, contextTokens: 900 }], reset);
		expect(baseline.usage.cost).toBe(1.5);
		expect(baseline.contextTokens).toBe(900);
	});

	it("retry_scheduled sets a countdown target from now; retry_finished clears it", () => {
		const waiting = replay([{ type: "retry_scheduled", attempt: 2, maxRetries: 3, delayMs: 4000, reason: "overloaded" }], initialView(), 10_000);
		expect(waiting.retry).toEqual({ attempt: 2, maxRetries: 3, reason: "overloaded", until: 14_000 });
		expect(replay([{ type: "retry_finished", attempt: 2, success: true }], waiting).retry).toBeUndefined();
	});

	it("queue_changed replaces the queued messages", () => {
		const view = replay([{ type: "queue_changed", steering: ["stop using npm"], followUp: ["then run tests"] }]);
		expect(view.queue).toEqual({ steering: ["stop using npm"], followUp: ["then run tests"] });
		expect(replay([{ type: "queue_changed", steering: [], followUp: [] }], view).queue).toEqual({ steering: [], followUp: [] });
	});

	it("model_changed and thinking_changed update the footer's info and leave a notice", () => {
		const view = replay([open, { type: "model_changed", provider: "openai", model: "gpt-x" }, { type: "thinking_changed", level: "high" }]);
		expect(view.session).toMatchObject({ provider: "openai", model: "gpt-x", thinkingLevel: "high" });
		expect(ofKind(view, "notice").map((item) => item.text).slice(1)).toEqual(["Model: openai/gpt-x", "Thinking level: high"]);
	});

	it("compaction_start shows compaction in progress; compaction_end reports how it went", () => {
		const started = replay([{ type: "compaction_start", reason: "threshold" }]);
		expect(started.compacting).toBe("threshold");
		const done = replay([{ type: "compaction_end", reason: "threshold", aborted: false, tokensBefore: 150000, summary: "..." }], started);
		expect(done.compacting).toBeUndefined();
		expect(ofKind(done, "notice")[0]).toMatchObject({ level: "info", text: "Compacted the conversation (150,000 tokens before)." });
		const failed = replay([{ type: "compaction_start", reason: "manual" }, { type: "compaction_end", reason: "manual", aborted: false, error: "model unreachable" }]);
		expect(ofKind(failed, "notice")[0]).toMatchObject({ level: "error", text: "Compaction failed: model unreachable" });
		const aborted = replay([{ type: "compaction_end", reason: "manual", aborted: true }]);
		expect(ofKind(aborted, "notice")[0].level).toBe("warning");
	});

	it("session_error becomes an error notice in the transcript", () => {
		const view = replay([{ type: "session_error", message: "No API key for anthropic. Set ANTHROPIC_API_KEY." }]);
		expect(ofKind(view, "notice")).toEqual([{ kind: "notice", id: expect.any(String), level: "error", text: "No API key for anthropic. Set ANTHROPIC_API_KEY." }]);
	});

	it("gives every transcript item a unique id", () => {
		const view = replay([open, userEnd("a"), ...streamedAssistant(["b\n\nc"]), { type: "session_error", message: "x" }, { type: "ui_notice", level: "info", text: "y" }]);
		expect(new Set(view.transcript.map((item) => item.id)).size).toBe(view.transcript.length);
	});

	it("leaving during a run moves what was live into the transcript, says so, and shows nothing the run sends after", () => {
		const streaming = replay([
			{ type: "run_start" },
			{ type: "agent_start" },
			{ type: "message_start", message: assistant([]) },
			textDelta("First paragraph.\n\nSecond, still stream"),
		]);
		expect(ofKind(streaming, "assistant").map((item) => item.text)).toEqual(["First paragraph.\n\n"]);
		const left = replay([{ type: "ui_leave_run" }], streaming);
		expect(left.activeAssistant).toBeUndefined();
		expect(ofKind(left, "assistant").map((item) => item.text)).toEqual(["First paragraph.\n\n", "Second, still stream"]);
		expect(left.transcript.at(-1)).toMatchObject({ kind: "notice", level: "warning", text: "Interrupted: loom exited during the run." });
		const late = replay([{ type: "message_end", message: assistant("First paragraph.\n\nSecond, still streaming", { stopReason: "aborted" }) }, { type: "run_end", status: "aborted" }], left);
		expect(late.transcript).toEqual(left.transcript);
		expect(replay([{ type: "ui_leave_run" }])).toEqual(initialView());
	});
});

describe("approval events", () => {
	const start: ScreenEvent[] = [{ type: "agent_start" }, { type: "turn_start" }, toolStart("c1", "bash", { command: "npm test" })];

	it("a call waiting for approval shows it until the answer, then runs as usual", () => {
		const waiting = replay([...start, { type: "tool_approval_requested", toolCallId: "c1", toolName: "bash" }]);
		expect(waiting.tools.c1.status).toBe("waiting");
		const answered = replay([{ type: "tool_approval_resolved", toolCallId: "c1", toolName: "bash", outcome: "allowed" }], waiting);
		expect(answered.tools.c1.status).toBe("preparing");
		expect(replay([toolUpdate("c1", "bash", "ok")], answered).tools.c1.status).toBe("running");
	});

	it("a denied call ends as an error; an answer for a finished or unknown row changes nothing", () => {
		const denied = replay([
			...start,
			{ type: "tool_approval_requested", toolCallId: "c1", toolName: "bash" },
			{ type: "tool_approval_resolved", toolCallId: "c1", toolName: "bash", outcome: "denied" },
			toolEnd("c1", "bash", "The user denied this bash call.", true),
		]);
		expect(denied.tools.c1.status).toBe("error");
		expect(replay([{ type: "tool_approval_requested", toolCallId: "c1", toolName: "bash" }], denied)).toBe(denied);
		expect(replay([{ type: "tool_approval_requested", toolCallId: "zz", toolName: "bash" }], denied)).toBe(denied);
	});

	it("a row's time leaves out the wait for approval: it counts from execute()'s start", () => {
		// 1200 start, 1300 asked, the answer comes 60 s later, it runs from 61400 to 61500.
		let view = replay([...start, { type: "tool_approval_requested", toolCallId: "c1", toolName: "bash" }]);
		view = replay([{ type: "tool_approval_resolved", toolCallId: "c1", toolName: "bash", outcome: "allowed" }], view, 61_300);
		view = replay([{ type: "tool_execution_running", toolCallId: "c1", toolName: "bash" }, toolEnd("c1", "bash", "ok")], view, 61_400);
		const row = view.tools.c1;
		expect(row).toMatchObject({ status: "done", startedAt: 61_400, endedAt: 61_500 });
		expect(stripAnsi(toolRowHeader(row, 70_000))).toMatch(/ 0\.1s$/);
		expect(calls.all.get("c1")).toMatchObject({ approvalWaitMs: 60_000, startedAt: 61_400, endedAt: 61_500 });
	});

	it("a call the user refused ends blocked in the session and as an error row", () => {
		const denied = replay([
			...start,
			{ type: "tool_approval_requested", toolCallId: "c1", toolName: "bash" },
			{ type: "tool_approval_resolved", toolCallId: "c1", toolName: "bash", outcome: "denied" },
			toolEnd("c1", "bash", "The user denied this bash call.", true),
		]);
		expect(calls.all.get("c1")?.status).toBe("blocked");
		expect(denied.tools.c1).toMatchObject({ status: "error", resultText: "The user denied this bash call." });
	});

	it("records the approval mode, and keeps it when a session opens", () => {
		const view = replay([{ type: "approval_mode_changed", mode: "read-only" }]);
		expect(view.session.approvalMode).toBe("read-only");
		const opened = replay([{ type: "session_open", sessionId: "s2", cwd: "/work", provider: "p", model: "m", thinkingLevel: "off", messageCount: 0 }], view);
		expect(opened.session.approvalMode).toBe("read-only");
	});
});
