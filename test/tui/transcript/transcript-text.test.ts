import chalk from "chalk";
import stringWidth from "string-width";
import { stripVTControlCharacters as strip } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reduceView } from "../../../src/tui/screen/reducer.js";
import { expandLast, transcriptRows, transcriptText } from "../../../src/tui/transcript/transcript-text.js";
import { type ScreenView, type TranscriptItem, initialView } from "../../../src/tui/transcript/view-model.js";
import { builtinTools } from "../../support/builtin-tools.js";

const level = chalk.level;
beforeAll(() => {
	chalk.level = 1;
});
afterAll(() => {
	chalk.level = level;
});

function show(item: TranscriptItem, showThinking = false, width = 60): string {
	return strip(transcriptText([item], width, showThinking, builtinTools));
}

describe("transcript text", () => {
	const thinking: TranscriptItem = { kind: "thinking", id: "t", messageId: "m", turn: 1, text: "First I check the file.\nThen I edit it.", redacted: false };

	it("shows thinking collapsed to one dimmed line, or in full when expanded", () => {
		expect(show(thinking).trim()).toBe("✻ Thinking · 2 lines (ctrl+t to show)");
		expect(show(thinking, true).trim()).toBe("✻ First I check the file.\nThen I edit it.");
		expect(show({ ...thinking, text: "", redacted: true }).trim()).toBe("✻ Thinking (redacted by the provider)");
		expect(transcriptRows(thinking, 60, false)[0]).toContain("\u001b[2m");
	});

	it("shows a user prompt, an assistant message as markdown, and notices by level", () => {
		expect(show({ kind: "user", id: "u", text: "fix the build" }).trim()).toBe("› fix the build");
		expect(show({ kind: "assistant", id: "a", messageId: "m", turn: 1, text: "## Plan\n\n1. **read**\n2. edit\n\n" }).trim()).toBe("Plan\n\n1. read\n2. edit");
		expect(show({ kind: "notice", id: "n1", level: "error", text: "boom" }).trim()).toBe("✗ boom");
		expect(show({ kind: "notice", id: "n2", level: "warning", text: "careful" }).trim()).toBe("! careful");
		expect(show({ kind: "notice", id: "n3", level: "info", text: "fyi" }).trim()).toBe("· fyi");
		expect(transcriptRows({ kind: "notice", id: "n1", level: "error", text: "boom" }, 60, false)[0]).toContain("\u001b[31m");
	});

	it("hangs a notice's rows under its text, wrapped or on lines of their own", () => {
		const text = "Files: 1 restored (calc.py).\nConversation: back to before that prompt; the later messages stay";
		expect(show({ kind: "notice", id: "n", level: "info", text }, false, 40).trim().split("\n")).toEqual([
			"· Files: 1 restored (calc.py).",
			"  Conversation: back to before that",
			"  prompt; the later messages stay",
		]);
	});

	it("wraps a notice's table rows under their right column, and keeps an indented line's indent", () => {
		const text = "Keys:\n  Ctrl+O  show the latest tool output, summary, thinking or shell output in full\n\n  Esc     interrupt\n    an indented line that is long enough to wrap at forty columns";
		expect(show({ kind: "notice", id: "n", level: "info", text }, false, 40).trim().split("\n")).toEqual([
			"· Keys:",
			"    Ctrl+O  show the latest tool output,",
			"            summary, thinking or shell",
			"            output in full",
			"",
			"    Esc     interrupt",
			"      an indented line that is long",
			"      enough to wrap at forty columns",
		]);
	});

	it("puts a notice table row's right column under its left one when the left one leaves it no room", () => {
		const text = "Keys:\n  Ctrl+Left / Ctrl+Right, Alt+B / Alt+F  move by a word, or by a part of a path";
		const rows = show({ kind: "notice", id: "n", level: "info", text }, false, 40).trim().split("\n");
		expect(rows).toEqual(["· Keys:", "    Ctrl+Left / Ctrl+Right, Alt+B /", "    Alt+F", "        move by a word, or by a part of", "        a path"]);
	});

	it("shows a finished tool batch with each run's final state, in source order", () => {
		const text = show({
			kind: "tools",
			id: "b",
			turn: 1,
			runs: [
				{ id: "1", name: "read", status: "done", argsPreview: "a.ts", startedAt: 0, endedAt: 300, resultText: "x\ny" },
				{ id: "2", name: "bash", status: "error", argsPreview: "make", startedAt: 0, endedAt: 1200, resultText: "make: *** no rule", details: { exitCode: 2 } },
			],
		});
		expect(text.trim().split("\n")).toEqual(["✓ read a.ts 0.3s", "  read 2 lines", "✗ bash make 1.2s", "  make: *** no rule", "  exit 2"]);
	});

	it("shortens a finished row's long argument summary to the width, keeping its time", () => {
		const command = "npm run test -- --reporter verbose --coverage --watch=false packages/core packages/cli";
		const runs = [{ id: "1", name: "bash", status: "done" as const, argsPreview: command, startedAt: 0, endedAt: 12_300, resultText: "" }];
		const header = show({ kind: "tools", id: "b", turn: 1, runs }).trim().split("\n")[0]!;
		expect(header).toMatch(/^✓ bash npm run test[^…]*… 12s$/);
		expect(stringWidth(header)).toBeLessThanOrEqual(60);
	});

	it("draws outside text without its escape sequences: a row's header writes them out, output and prose lose them", () => {
		const osc = "\u001b]2;title\u0007";
		const items: TranscriptItem[] = [
			{ kind: "user", id: "u", text: `prompt${osc}` },
			{ kind: "assistant", id: "a", messageId: "m", turn: 1, text: `**bold**${osc} answer\u001b[2J` },
			{ kind: "thinking", id: "t", messageId: "m", turn: 1, text: `thought${osc}`, redacted: false },
			{ kind: "notice", id: "n", level: "error", text: `server says${osc}` },
			{
				kind: "tools",
				id: "b",
				turn: 1,
				runs: [{ id: "1", name: `bash${osc}`, status: "done", argsPreview: `echo ${osc}`, startedAt: 0, endedAt: 100, resultText: `col1\tcol2${osc}\r\n` }],
			},
		];
		const raw = transcriptText(items, 100, true);
		// Only loom's own styling (SGR) is left.
		expect(raw.replace(/\u001b\[[0-9;]*m/g, "")).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
		expect(strip(raw).trim().split("\n").filter((row) => row !== "")).toEqual([
			"› prompt",
			"bold answer",
			"✻ thought",
			"✗ server says",
			"✓ bash\\x1b]2;title\\x07 echo \\x1b]2;title\\x07 0.1s",
			"  col1    col2",
		]);
	});

	it("puts a blank line before each item and ends every row with a newline", () => {
		const items: TranscriptItem[] = [
			{ kind: "user", id: "u", text: "hi" },
			{ kind: "assistant", id: "a", messageId: "m", turn: 1, text: "one\n\ntwo" },
		];
		expect(strip(transcriptText(items, 40, false))).toBe("\n› hi\n\none\n\ntwo\n");
		expect(transcriptText([], 40, false)).toBe("");
	});

	it("wraps every kind of item to the width: prompts under their text, tool output under its header", () => {
		const width = 24;
		const long = "a sentence long enough to need several rows at this width";
		const user = transcriptRows({ kind: "user", id: "u", text: long }, width, false).map(strip);
		expect(user.length).toBeGreaterThan(2);
		expect(user[0]!.startsWith("› ")).toBe(true);
		for (const row of user.slice(1)) expect(row.startsWith("  ")).toBe(true);
		const tools = transcriptRows(
			{ kind: "tools", id: "b", turn: 1, runs: [{ id: "1", name: "bash", status: "done", argsPreview: "x".repeat(80), startedAt: 0, endedAt: 100, resultText: long, details: { exitCode: 0 } }] },
			width,
			false,
			builtinTools,
		).map(strip);
		// The header is cut to one row, in its argument summary: the time stays. The output wraps, indented.
		expect(tools[0]).toMatch(/^✓ bash x+… 0\.1s$/);
		expect(tools.slice(1, -1).every((row) => row.startsWith("  "))).toBe(true);
		expect(tools.slice(1).join(" ").replace(/\s+/g, " ")).toContain(long);
		for (const item of [user, tools]) for (const row of item) expect(stringWidth(row)).toBeLessThanOrEqual(width);
		const answer = transcriptRows({ kind: "assistant", id: "a", messageId: "m", turn: 1, text: `**${long}** and ${long}` }, width, false);
		for (const row of answer) expect(stringWidth(strip(row))).toBeLessThanOrEqual(width);
		expect(answer.map(strip).join(" ").replace(/\s+/g, " ")).toBe(`${long} and ${long}`);
	});
});

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
