// The terminal belongs to the user: text from the model, a tool, a file or a server never drives the terminal.
// The built `loom` runs in tmux; an OSC 2 sequence that got through would change the pane's title, an OSC 52
// one would fill a tmux paste buffer (set-clipboard on), so both are read after each case.
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type LoomsInTmux, type OpenOptions, useLoomInTmux } from "../support/loom-in-tmux.js";
import type { ScriptedTurn } from "../support/scripted-model-server.mjs";
import { type TmuxTerminal, hasTmux } from "../support/tmux-terminal.js";

const CLEAN_TITLE = "title-set-by-the-test";
const ESC = "\u001b";
const BEL = "\u0007";
/** An OSC 2 sequence setting the window title to `title`, BEL-terminated. */
const osc2 = (title: string) => `${ESC}]2;${title}${BEL}`;
/** How a row shows that sequence: every control character made visible. */
const shown = (title: string) => `\\x1b]2;${title}\\x07`;
/** OSC 52: put "PWNED" on the clipboard. */
const OSC52 = `${ESC}]52;c;UFdORUQ=${BEL}`;

/** loom in a terminal with tmux's clipboard on, so an OSC 52 that reaches it becomes a paste buffer. */
function startTerminal(loom: LoomsInTmux, options: OpenOptions = {}): TmuxTerminal {
	const { terminal } = loom.open({ ...options, columns: 120, rows: 40 });
	terminal.tmux("set-option", "-s", "set-clipboard", "on");
	terminal.setTitle(CLEAN_TITLE);
	return terminal;
}

function pasteBuffers(terminal: TmuxTerminal): string {
	return terminal.tmux("list-buffers");
}

describe.skipIf(!hasTmux())("escape sequences from outside never reach the terminal (tmux)", () => {
	const loom = useLoomInTmux("loom-escapes");
	const server = loom.server;
	let cwd: string;
	let terminal: TmuxTerminal;
	let step = 0;

	/**
	 * One prompt: the scripted turns, then (after tool calls) a final answer; resolves with the scrollback once
	 * the screen is ready again and shows `until` (default: the final answer's marker).
	 */
	async function converse(turns: ScriptedTurn[], until?: string): Promise<string> {
		const done = `step-${++step}-done`;
		terminal.setTitle(CLEAN_TITLE);
		server.enqueue(...turns);
		if (turns.at(-1)?.toolCalls) server.enqueue({ text: done });
		await terminal.typeLine(`prompt ${step}`);
		const expected = until ?? done;
		await terminal.waitForScreen((text) => text.includes(expected) && text.includes("ready"), expected);
		return terminal.history();
	}

	beforeAll(async () => {
		const ws = loom.workspace();
		cwd = ws.cwd;
		writeFileSync(join(cwd, "notes.txt"), "alpha\n");
		terminal = startTerminal(loom, { workspace: ws });
		await terminal.waitForScreen((text) => text.includes("Ask loom") && text.includes("ready"), "the editor");
	});

	it("shows a bash command's escape sequence as text, and strips the one its output prints", async () => {
		// The sequence sits in a comment, so the command runs harmlessly; printf then prints a real one.
		const command = `printf 'out-\\033]2;PWNED-output\\007-put\\n' # ${osc2("PWNED-bash")}`;
		const text = await converse([{ toolCalls: [{ id: "c1", name: "bash", arguments: { command } }] }]);
		expect(terminal.title()).toBe(CLEAN_TITLE);
		expect(text).toContain(`# ${shown("PWNED-bash")}`);
		// The output row: the sequence printf printed is gone, the text around it stays.
		expect(text).toMatch(/^ {2}out--put$/m);
	});

	it("shows a tool name's escape sequence as text", async () => {
		const text = await converse([{ toolCalls: [{ id: "c2", name: `tool${osc2("PWNED-name")}`, arguments: {} }] }]);
		expect(terminal.title()).toBe(CLEAN_TITLE);
		expect(text).toContain(`tool${shown("PWNED-name")}`);
	});

	it("shows a write path's escape sequence as text", async () => {
		const path = `out${osc2("PWNED-write")}.txt`;
		const text = await converse([{ toolCalls: [{ id: "c3", name: "write", arguments: { path, content: "x\n" } }] }]);
		expect(terminal.title()).toBe(CLEAN_TITLE);
		expect(text).toContain(`out${shown("PWNED-write")}.txt`);
		// The file is written under its real name: the row showed what ran.
		expect(readdirSync(cwd)).toContain(path);
	});

	it("strips the escape sequence of an edit's new text from the diff", async () => {
		const edits = [{ oldText: "alpha", newText: `beta-${osc2("PWNED-edit")}-gamma` }];
		const text = await converse([{ toolCalls: [{ id: "c4", name: "edit", arguments: { path: "notes.txt", edits } }] }]);
		expect(terminal.title()).toBe(CLEAN_TITLE);
		expect(text).toContain("+beta--gamma");
	});

	it("strips the escape sequence of a read error", async () => {
		// The path shows in the row as it is, and in the error message, which is prose.
		const text = await converse([{ toolCalls: [{ id: "c5", name: "read", arguments: { path: `missing${osc2("PWNED-read")}.txt` } }] }]);
		expect(terminal.title()).toBe(CLEAN_TITLE);
		expect(text).toContain(`missing${shown("PWNED-read")}.txt`);
		expect(text).toContain("File not found: missing.txt");
	});

	it("strips escape sequences from the assistant's text and thinking, the clipboard's included", async () => {
		const answer = `Hello ${osc2("PWNED-text")}world ${OSC52}and ${ESC}[31mred${ESC}[0m.`;
		const text = await converse([{ thinking: `pondering ${osc2("PWNED-thinking")} hard`, text: answer }], "Hello world and red.");
		expect(terminal.title()).toBe(CLEAN_TITLE);
		expect(pasteBuffers(terminal)).toBe("");
		expect(text).toContain("Hello world and red.");
		// Ctrl+T prints the thinking in full.
		terminal.sendKeys("C-t");
		await terminal.waitForScreen((screen) => screen.includes("✻ pondering"), "the thinking in full");
		expect(terminal.title()).toBe(CLEAN_TITLE);
		expect(terminal.screen()).toContain("✻ pondering  hard");
		terminal.sendKeys("C-t");
	});

	it("strips the escape sequence of a server's error message", async () => {
		await converse([{ status: 400, errorMessage: `bad request ${osc2("PWNED-server")}from the server` }], "bad request from the server");
		expect(terminal.title()).toBe(CLEAN_TITLE);
	});

	it("pastes text with escape sequences as text: nothing obeyed, nothing crashes", async () => {
		terminal.setTitle(CLEAN_TITLE);
		// Copied coloured output, a title sequence and an 8-bit CSI: Ink would read the first as a key and throw.
		const pasted = `pasted ${ESC}[31mred${ESC}[0m ${osc2("PWNED-paste")}and\u009b31m plain`;
		terminal.tmux("set-buffer", "-b", "paste", pasted);
		terminal.tmux("paste-buffer", "-p", "-d", "-b", "paste", "-t", terminal.session);
		const text = await terminal.waitForScreen((screen) => screen.includes("plain"), "the pasted text");
		expect(terminal.title()).toBe(CLEAN_TITLE);
		expect(text).toContain("pasted red and plain");
		// Sent, the prompt is the text the editor showed.
		server.enqueue({ text: "paste received" });
		terminal.sendKeys("Enter");
		await terminal.waitForScreen((screen) => screen.includes("paste received") && screen.includes("ready"), "the answer");
		const sent = server.requests.at(-1)!.body.messages.filter((m: { role: string }) => m.role === "user").at(-1);
		expect(JSON.stringify(sent.content)).toContain("pasted red and plain");
	});

	it("keeps loom's own colours", async () => {
		await converse([{ toolCalls: [{ id: "c6", name: "bash", arguments: { command: "true" } }] }]);
		const styled = terminal.screen(true);
		// The status glyph in green, the tool name in bold.
		expect(styled).toMatch(/\u001b\[32m(\u001b\[\d+m)*✓/);
		expect(styled).toMatch(/\u001b\[1mbash/);
	});
});

describe.skipIf(!hasTmux())("print mode keeps escape sequences off the terminal (tmux)", () => {
	const loom = useLoomInTmux("loom-escapes-print");
	const server = loom.server;

	/** Runs `loom -p go` in a terminal of its own against `turns`; resolves with all the pane showed. */
	async function printRun(turns: ScriptedTurn[]): Promise<{ text: string }> {
		server.enqueue(...turns);
		const terminal = startTerminal(loom, { args: ["-p", "go"] });
		await terminal.waitForScreen((screen) => screen.includes("[loom exited with"), "loom exiting");
		expect(terminal.title()).toBe(CLEAN_TITLE);
		expect(pasteBuffers(terminal)).toBe("");
		// The whole pane: tmux's "Pane is dead" line may have scrolled the first one off the screen.
		return { text: terminal.history() };
	}

	it("strips the escape sequences of a server's error body on stderr", async () => {
		const { text } = await printRun([{ status: 400, errorMessage: `quota ${osc2("PWNED-stderr")}${OSC52}exceeded` }]);
		expect(text).toContain("quota exceeded");
		expect(text).toContain("[loom exited with 1]");
	});

	it("strips the escape sequences of the answer when stdout is a terminal, and shows a tool's name as text on the status line", async () => {
		const { text } = await printRun([
			{ toolCalls: [{ id: "c1", name: `tool${osc2("PWNED-status")}`, arguments: {} }] },
			{ text: `The answer ${osc2("PWNED-stdout")}${OSC52}is 42.` },
		]);
		expect(text).toContain("The answer is 42.");
		expect(text).toContain("[loom exited with 0]");
	});
});
