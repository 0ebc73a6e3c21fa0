import { describe, expect, it } from "vitest";
import { expandLast } from "../../../src/tui/transcript/expand-last.js";
import { reduceView } from "../../../src/tui/screen/reducer.js";
import { type ScreenView, initialView } from "../../../src/tui/transcript/view-model.js";
import { assistant, streamedAssistant, toolCall, toolEnd, toolResultMessage, toolStart } from "../events.js";
import { FakeSession } from "../fake-session.js";
import { mount } from "../mount-app.js";

const ENTER = "\r";
const CTRL_O = "\u000f";
const CTRL_L = "\u000c";

const longOutput = Array.from({ length: 60 }, (_, i) => `output line ${i + 1}`).join("\n");

function bashRun(id: string, command: string, output: string) {
	return [
		...streamedAssistant([""], assistant([toolCall(id, "bash", { command })])),
		toolStart(id, "bash", { command }),
		toolEnd(id, "bash", output),
		...toolResultMessage(id, "bash", output),
		{ type: "turn_end" as const, message: assistant(""), toolResults: [] },
	];
}

describe("expandLast", () => {
	it("finds the newest tool output, compaction summary, thinking or shell output, skipping what cannot be expanded", () => {
		let view: ScreenView = initialView();
		const add = (item: Parameters<typeof reduceView>[1]) => {
			view = reduceView(view, item, 0);
		};
		expect(expandLast(view.transcript)).toBeUndefined();
		add({ type: "ui_item", item: { kind: "thinking", messageId: "m", turn: 1, text: "pondering", redacted: false } });
		expect(expandLast(view.transcript)).toEqual({ kind: "expanded", title: "Thinking", text: "pondering" });
		add({ type: "compaction_end", reason: "manual", aborted: false, summary: "The user asked for X.", tokensBefore: 10 });
		expect(expandLast(view.transcript)).toEqual({ kind: "expanded", title: "Summary of the compacted conversation", text: "The user asked for X." });
		add({ type: "ui_notice", level: "info", text: "a plain notice" });
		add({ type: "ui_item", item: { kind: "shell", command: "ls", output: "a\nb", exitCode: 0, forContext: false } });
		expect(expandLast(view.transcript)).toEqual({ kind: "expanded", title: "Output of !ls", text: "a\nb" });
		add({ type: "ui_expand_last" });
		// An expansion is not expanded again: the same item is found behind it.
		expect(expandLast(view.transcript)).toMatchObject({ title: "Output of !ls" });
	});

	it("tells the user when there is nothing to expand", () => {
		const view = reduceView(initialView(), { type: "ui_expand_last" }, 0);
		expect(view.transcript.at(-1)).toMatchObject({ kind: "notice", text: expect.stringContaining("Nothing to expand yet") });
	});
});

describe("Ctrl+O and Ctrl+L on the screen", () => {
	it("Ctrl+O prints the last tool output again in full, below what was cut", async () => {
		const session = new FakeSession(() => bashRun("b1", "seq 60", longOutput));
		const screen = mount(session);
		await screen.type("run it", ENTER);
		let frame = await screen.until((f) => f.includes("ready") && f.includes("bash seq 60"));
		expect(frame).not.toContain("output line 1\n");
		await screen.type(CTRL_O);
		frame = await screen.until((f) => f.includes("▾ Output of bash seq 60"));
		const expanded = frame.slice(frame.indexOf("▾ Output of bash seq 60"));
		for (const n of [1, 2, 30, 60]) expect(expanded).toContain(`output line ${n}\n`);
	});

	it("Ctrl+O shows a compaction's summary in full", async () => {
		const session = new FakeSession();
		session.compact = async () => {
			await session.emit({ type: "compaction_start", reason: "manual" });
			await session.emit({ type: "compaction_end", reason: "manual", aborted: false, tokensBefore: 5000, summary: "## Goal\nShip the parser.\n## Files\nsrc/parser.ts" });
		};
		const screen = mount(session);
		await screen.until((f) => f.includes("Ask loom"));
		await screen.type("/compact", ENTER);
		await screen.until((f) => f.includes("Compacted the conversation (5,000 tokens before). · ctrl+o shows it"));
		await screen.type(CTRL_O);
		const frame = await screen.until((f) => f.includes("▾ Summary of the compacted conversation"));
		expect(frame).toContain("Ship the parser.\n## Files\nsrc/parser.ts");
	});

	it("Ctrl+L clears the terminal and prints the transcript again", async () => {
		const session = new FakeSession();
		const screen = mount(session);
		await screen.type("hello", ENTER);
		await screen.until((f) => f.includes("echo: hello") && f.includes("ready"));
		expect(screen.printed()).not.toContain("\u001b[2J");
		await screen.type(CTRL_L);
		await expect.poll(screen.printed).toContain("\u001b[2J");
		// The frame shows what follows the last clear: the transcript, printed again.
		const frame = screen.frame();
		expect(frame).toContain("› hello");
		expect(frame).toContain("echo: hello");
	});
});
