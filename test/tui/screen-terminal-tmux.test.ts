// The screen in a real terminal (tmux), for what only a terminal shows: the keys as tmux sends them, what the
// scrollback keeps after leaving, a tool row while its command runs silently.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useLoomInTmux } from "../support/loom-in-tmux.js";
import { sessionFiles, sessionMessages } from "../support/loom-process.js";
import { type Workspace, tempDir } from "../support/temp-dir.js";
import { type TmuxTerminal, count, hasTmux } from "../support/tmux-terminal.js";
import { waitFor } from "../support/wait-for.js";

/** The editor's rows (between its borders), without the borders and the padding. */
function editorText(screen: string): string {
	const rows = screen.split("\n");
	const top = rows.findIndex((row) => row.startsWith("╭"));
	const bottom = rows.findIndex((row, index) => index > top && row.startsWith("╰"));
	return rows
		.slice(top + 1, bottom)
		.map((row) => row.replace(/^│/, "").replace(/│\s*$/, "").trimEnd())
		.join("\n");
}

describe.skipIf(!hasTmux())("the screen in a terminal (tmux)", () => {
	const loom = useLoomInTmux("loom-screen-terminal");
	const server = loom.server;
	let terminal: TmuxTerminal;
	let root: string;

	beforeAll(() => {
		root = tempDir("loom-screen-terminal-");
	});

	/** Starts loom in a fresh project (or again in `again`'s) and waits for the editor. */
	async function open(args: string[] = [], size = { columns: 100, rows: 30 }, again?: Workspace): Promise<Workspace> {
		const opened = loom.open({ args, ...size, workspace: again });
		terminal = opened.terminal;
		await terminal.waitForScreen((text) => text.includes("Ask loom"), "the editor");
		return opened;
	}

	/**
	 * Types `text` into the empty editor, then the keys (tmux key names, or raw sequences with `raw`), and waits for
	 * the editor to show `expected`.
	 */
	async function edit(text: string, keys: Array<string | { raw: string }>, expected: string): Promise<void> {
		terminal.sendKeys("-l", text);
		await terminal.waitForScreen((screen) => editorText(screen) === `› ${text}`, `"${text}" in the editor`);
		for (const key of keys) {
			if (typeof key === "string") terminal.sendKeys(key);
			else terminal.sendKeys("-l", key.raw);
		}
		await terminal.waitForScreen((screen) => editorText(screen) === expected, `the editor to read ${JSON.stringify(expected)}`);
	}

	/** Empties a one-line editor, and waits to see it empty before anything else is typed. */
	async function clear(): Promise<void> {
		terminal.sendKeys("End");
		terminal.sendKeys("C-u");
		await terminal.waitForScreen((screen) => editorText(screen).includes("Ask loom"), "an empty editor");
	}

	it("edits with the keys as tmux sends them", async () => {
		await open();
		await edit("abcd", ["Left", "Left", "DC"], "› abd");
		await clear();
		await edit("abcd", ["Left", "Left", "BSpace"], "› acd");
		await clear();
		await edit("one two three", ["C-Left", "C-Left", "X"], "› one Xtwo three");
		await clear();
		await edit("one two three", ["Home", "C-Right", "X"], "› oneX two three");
		await clear();
		await edit("one two three", ["M-b", "X"], "› one two Xthree");
		await clear();
		await edit("one two three", ["Home", "M-f", "M-f", "X"], "› one twoX three");
		await clear();
		await edit("cat /usr/local/bin", ["M-BSpace"], "› cat /usr/local/");
		await clear();
		await edit("cat /usr/local/bin", ["C-w"], "› cat");
		await clear();
		await edit("first", [{ raw: "\u001b[27;2;13~" }, "second"], "› first\n  second");
	});

	it("two Ctrl+C while an answer streams leave what was shown and an interrupted line in the scrollback", async () => {
		const paragraph = (n: number) => `Paragraph ${n} of the answer, streaming slowly.`;
		const text = Array.from({ length: 40 }, (_, i) => paragraph(i + 1)).join("\n\n");
		server.enqueue({ text, chunkSize: 6, chunkDelayMs: 40 });
		await open();
		await terminal.typeLine("tell me slowly");
		// Paragraph 3 shown: the first two are in the scrollback, the third is still live below them.
		const shown = await terminal.waitForScreen((screen) => screen.includes(paragraph(3)), "the answer streaming");
		terminal.sendKeys("C-c");
		terminal.sendKeys("C-c");
		const after = await terminal.waitForScreen((screen) => screen.includes("[loom exited with"), "loom to exit");
		const scrollback = terminal.history();
		expect(after).toContain("[loom exited with 0]");
		// The line being streamed when the keys were pressed (live, not yet in the scrollback) is there, as far as shown.
		const streaming = [...shown.matchAll(/Paragraph \d+ of[^\n]*/g)].at(-1)![0].trimEnd();
		expect(scrollback).toContain(streaming);
		expect(scrollback).toContain("Interrupted");
		// In order: the prompt, the answer so far, then the interrupted line.
		expect(scrollback.indexOf("› tell me slowly")).toBeLessThan(scrollback.indexOf(paragraph(1)));
		expect(scrollback.lastIndexOf(streaming)).toBeLessThan(scrollback.indexOf("Interrupted"));
	});

	it("one Ctrl+C on an empty editor stops the run as Esc does: the command ends, the file is complete, loom stays", async () => {
		const started = join(root, "ctrl-c-started");
		server.enqueue({ toolCalls: [{ id: "call_long", name: "bash", arguments: { command: `touch ${started}; sleep 30` } }] });
		const ws = await open();
		await terminal.typeLine("run the long one");
		await terminal.waitForScreen((screen) => /bash touch .* [\d.]+s/.test(screen), "the command running");
		await waitFor(() => existsSync(started), Boolean, { what: "the command to start" });
		terminal.sendKeys("C-c");
		// The finished rows reach the transcript in a frame of their own, which may come after the status's.
		const interrupted = /✗ bash touch .*\n(.*\n)*\s+interrupted/;
		const stopped = await terminal.waitForScreen((screen) => screen.includes("ready") && interrupted.test(screen), "the run to stop, its command shown interrupted");
		expect(stopped).toMatch(interrupted);
		expect(stopped).not.toContain("[loom exited");
		const [file] = sessionFiles(ws.home);
		expect(sessionMessages(file!).map((message) => message.role)).toEqual(["user", "assistant", "toolResult"]);
		expect(sessionMessages(file!)[2]).toMatchObject({ toolCallId: "call_long", isError: true });
		// The model was not asked again: the run ended with the stopped command.
		expect(server.requests).toHaveLength(1);
		// The screen goes on: the next prompt is a run of its own.
		server.enqueue({ text: "Back again." });
		await terminal.typeLine("and now?");
		await terminal.waitForScreen((screen) => screen.includes("Back again."), "the next answer");
		terminal.sendKeys("C-d");
		await terminal.waitForScreen((screen) => screen.includes("[loom exited with 0]"), "loom to exit");
	});

	it("Up in a new loom recalls the prompts typed in this project before, newest first", async () => {
		server.setDefaultTurn({ text: "Noted." });
		const ws = await open();
		for (const [index, prompt] of ["remember the milk", "and the bread"].entries()) {
			await terminal.typeLine(prompt);
			await terminal.waitForScreen((screen) => count(screen, "Noted.") === index + 1 && screen.includes("ready"), "the answer");
		}
		terminal.sendKeys("C-d");
		await terminal.waitForScreen((screen) => screen.includes("[loom exited with 0]"), "loom to exit");

		await open([], undefined, ws);
		terminal.sendKeys("Up");
		await terminal.waitForScreen((screen) => editorText(screen) === "› and the bread", "the latest prompt recalled");
		terminal.sendKeys("Up");
		await terminal.waitForScreen((screen) => editorText(screen) === "› remember the milk", "the one before");
	});

	it("draws markdown tables within 60 columns: grids that fit, a table too wide as records, no line wrapped by the terminal", async () => {
		const names = Array.from("東京都区部大阪府市町村県道北海九州");
		const wide = [`| ${names.join(" | ")} |`, `|${names.map(() => "---").join("|")}|`, `| ${names.map((name, i) => name + names[(i + 1) % names.length]).join(" | ")} |`];
		const words = ["| Option | Meaning | Default |", "|:--|:--|--:|", "| `--model` | The model to use for every request in this session, as provider/id or a bare id | claude-sonnet |"];
		server.enqueue({ text: ["Two tables:", "", ...words, "", ...wide, "", "End of tables."].join("\n") });
		await open([], { columns: 60, rows: 50 });
		await terminal.typeLine("tables");
		// The closed blocks reach the transcript in a frame of their own, which may come after the last block's (as above).
		const screen = await terminal.waitForScreen((text) => text.includes("End of tables.") && text.includes("Two tables:") && text.includes("州: 州東"), "the whole answer");
		const rows = screen.split("\n");
		// A row the terminal wrapped would end in the middle of the grid, its rest on the next line.
		for (const row of rows.filter((line) => /^[┌├└]/.test(line))) expect(row.trimEnd(), row).toMatch(/[┐┤┘]$/);
		for (const row of rows.filter((line) => line.startsWith("│"))) expect(row.trimEnd(), row).toMatch(/│$/);
		for (const row of rows.filter((line) => /[┬┼┴]/.test(line))) expect(row, row).toMatch(/^[┌├└]/);
		expect(screen).toMatch(/│ --model │ The model to use for every +│ claude-sonnet │/);
		expect(rows).toContain("東: 東京");
		expect(rows).toContain("州: 州東");
	});

	it("shows a silent command's row as running, not preparing, while it runs", async () => {
		server.enqueue({ toolCalls: [{ id: "call_quiet", name: "bash", arguments: { command: "sleep 30 && echo x" } }] }, { text: "Stopped." });
		await open();
		await terminal.typeLine("wait a little");
		const screen = await terminal.waitForScreen((text) => /bash sleep 30 && echo x [\d.]+s/.test(text), "the command's row with a time");
		expect(screen).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] bash sleep 30 && echo x \d+\.\ds/);
		expect(screen).not.toContain("preparing");
		terminal.sendKeys("Escape");
		await terminal.waitForScreen((text) => text.includes("ready"), "the run to stop");
	});

	it("draws live with CI set in the environment: a person at a terminal runs the screen", async () => {
		server.enqueue({ text: "Answered live." });
		const opened = loom.open({ env: { CI: "true" }, columns: 100, rows: 30 });
		terminal = opened.terminal;
		await terminal.waitForScreen((text) => text.includes("Ask loom"), "the editor");
		await terminal.typeLine("hello");
		await terminal.waitForScreen((text) => text.includes("Answered live.") && text.includes("ready"), "the answer and the ready footer");
	});
});
