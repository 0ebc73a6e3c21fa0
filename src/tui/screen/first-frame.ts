// The editor drawn the moment loom knows it runs the screen, before the session and Ink are loaded: the editor
// where the screen's will be, showing what is typed into it meanwhile. It stays until anything else is written to the
// terminal (the screen's first frame, a notice, a picker, an error), which erases it first, or until the process exits.
import { onProcessExit } from "../../core/index.js";
import { colorRefused } from "../text/index.js";

const PLACEHOLDER = "Ask loom · /help for commands";
/** Rows the frame takes below the cursor's row: the editor's top margin is that row, then its box. */
const BOX_ROWS = 3;
const HIDE_CURSOR = "\u001b[?25l";
const SHOW_CURSOR = "\u001b[?25h";

type Write = NodeJS.WriteStream["write"];

export interface FirstFrame {
	/**
	 * Shows the keys typed so far in the editor: the line being typed (after the last Enter), Backspace applied. Only
	 * plain text that fits the row is drawn; anything else (an arrow's or another key's sequence, a character of
	 * another width) leaves the row as it was, for the screen's editor to show.
	 */
	showTyped(typed: string): void;
}

/** The line `typed` leaves in the editor, Backspace applied; undefined unless it is printable ASCII. */
function editorLine(typed: string): string | undefined {
	let line = "";
	for (const char of typed.slice(Math.max(typed.lastIndexOf("\r"), typed.lastIndexOf("\n")) + 1)) {
		if (char === "\u007f" || char === "\b") line = line.slice(0, -1);
		else if (char >= " " && char <= "~") line += char;
		else return undefined;
	}
	return line;
}

/**
 * Draws the editor's first frame on `stdout` (a terminal) as the screen draws it, without Ink: its box at the
 * terminal's width, the prompt marker, the cursor and the placeholder; returns what draws the keys typed into it.
 * Nothing is drawn on a terminal too narrow.
 */
export function drawFirstFrame(stdout: NodeJS.WriteStream, stderr: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): FirstFrame | undefined {
	const width = stdout.columns ?? 0;
	if (stdout.isTTY !== true || width < 8) return undefined;
	const color = !colorRefused(env);
	const paint = (open: string, close: string, text: string) => (color ? `\u001b[${open}m${text}\u001b[${close}m` : text);
	const magenta = (text: string) => paint("35", "39", text);
	const inner = width - 2;
	const placeholder = PLACEHOLDER.slice(0, Math.max(0, inner - 3));
	const cursor = "\u001b[7m \u001b[27m";
	const row = (line: string) => {
		const rest = line === "" ? paint("2", "22", placeholder) + " ".repeat(inner - 3 - placeholder.length) : " ".repeat(inner - 3 - line.length);
		return `${magenta("│")}${magenta("› ")}${line}${cursor}${rest}${magenta("│")}`;
	};
	const frame = `${HIDE_CURSOR}\n${magenta(`╭${"─".repeat(inner)}╮`)}\n${row("")}\n${magenta(`╰${"─".repeat(inner)}╯`)}`;

	const streams = [stdout, stderr];
	const writes = new Map<NodeJS.WriteStream, Write>(streams.map((stream) => [stream, stream.write]));
	let shown = true;
	const erase = () => {
		if (!shown) return;
		shown = false;
		forgetExit();
		for (const [stream, write] of writes) stream.write = write;
		// Each of its rows cleared, bottom up, then back to the row it started below. Row by row: a clear to the end of
		// the screen from its top corner puts the screen in the scrollback first (tmux).
		stdout.write(`\r${"\u001b[2K\u001b[1A".repeat(BOX_ROWS)}${SHOW_CURSOR}`);
	};
	const forgetExit = onProcessExit(erase);
	for (const [stream, write] of writes) {
		stream.write = function (this: NodeJS.WriteStream, ...args: Parameters<Write>) {
			erase();
			return write.apply(this, args);
		} as Write;
	}
	const draw = writes.get(stdout)!;
	draw.call(stdout, frame);
	let drawn = "";
	return {
		showTyped(typed) {
			const line = editorLine(typed);
			// At another width the frame has wrapped: its rows are no longer where the redraw would put them.
			if (!shown || line === undefined || line === drawn || line.length > inner - 3 || stdout.columns !== width) return;
			drawn = line;
			// The cursor waits on the box's bottom row: up to the editor's row, redrawn whole, and back down.
			draw.call(stdout, `\r\u001b[1A${row(line)}\r\u001b[1B`);
		},
	};
}
