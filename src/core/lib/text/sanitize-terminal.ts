// Text from outside (the model, a tool, a file, a server) made safe to draw: it may contain escape sequences
// that retitle the terminal, write the clipboard (OSC 52), move the cursor or hide text. Two ways:
//   stripControls: prose, markdown and output — sequences and control characters removed, the text kept
//                  (stripCommandOutput: a command's output, keeping only the last redraw of a line).
//   showControls:  what a row says will run (a command, a path, a tool name) — every control character
//                  written out (`\x1b`), so the row hides nothing and obeys nothing.
// Callers add their own styling after this, never before. The common case (no control character) is one
// regular-expression scan that returns the same string.

export interface StripOptions {
	/** Keep tabs as they are (a stream the terminal lays out itself); otherwise they become spaces. */
	keepTabs?: boolean;
}

/** Columns between tab stops when tabs are expanded (CommonMark's tab stop, so markdown reads the same). */
const TAB_STOP = 4;

const HAS_CONTROL_OR_TAB = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/;
const HAS_CONTROL_KEEP_TAB = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

const ESC = 0x1b;
const BEL = 0x07;
const CAN = 0x18;
const SUB = 0x1a;
const C1_CSI = 0x9b;
const C1_ST = 0x9c;

/** After ESC: ] (OSC), P (DCS), X (SOS), ^ (PM) and _ (APC) open a control string, ended by BEL or ST. */
function isStringIntroducer(code: number): boolean {
	return code === 0x5d || code === 0x50 || code === 0x58 || code === 0x5e || code === 0x5f;
}

/** The same five as single 8-bit (C1) characters. */
function isC1StringIntroducer(code: number): boolean {
	return code === 0x9d || code === 0x90 || code === 0x98 || code === 0x9e || code === 0x9f;
}

/**
 * End of a CSI whose parameters start at `from`: parameter bytes, intermediate bytes, one final byte (a
 * malformed one ends where its bytes stop fitting); -1 when the text ends first.
 */
function csiEnd(text: string, from: number): number {
	let i = from;
	while (i < text.length && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x3f) i++;
	while (i < text.length && text.charCodeAt(i) >= 0x20 && text.charCodeAt(i) <= 0x2f) i++;
	if (i >= text.length) return -1;
	return text.charCodeAt(i) >= 0x40 && text.charCodeAt(i) <= 0x7e ? i + 1 : i;
}

/**
 * End of a control string whose body starts at `from`, or -1 when the text ends first. BEL or ST (ESC \ or
 * 0x9c) end it; CAN and SUB cancel it; any other ESC cuts it short (the terminal starts a new sequence there).
 */
function stringEnd(text: string, from: number): number {
	for (let i = from; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code === BEL || code === C1_ST || code === CAN || code === SUB) return i + 1;
		if (code === ESC) return text.charCodeAt(i + 1) === 0x5c ? i + 2 : i;
	}
	return -1;
}

/** End (exclusive) of the escape sequence or control character at `start`; -1 when the text ends inside it. */
function sequenceEnd(text: string, start: number): number {
	const code = text.charCodeAt(start);
	if (code === C1_CSI) return csiEnd(text, start + 1);
	if (isC1StringIntroducer(code)) return stringEnd(text, start + 1);
	if (code !== ESC) return start + 1;
	if (start + 1 >= text.length) return -1;
	const next = text.charCodeAt(start + 1);
	if (next === 0x5b) return csiEnd(text, start + 2);
	if (isStringIntroducer(next)) return stringEnd(text, start + 2);
	// Other escape sequences: intermediate bytes, then one final byte (ESC 7, ESC ( B, ESC c, …).
	let i = start + 1;
	while (i < text.length && text.charCodeAt(i) >= 0x20 && text.charCodeAt(i) <= 0x2f) i++;
	if (i >= text.length) return -1;
	return text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x7e ? i + 1 : i;
}

/**
 * What stripping removes of a sequence the text ends inside: an unterminated string loses only its
 * introducer (the rest is harmless text, and nothing is hidden); anything else goes to the end.
 */
function cutSequenceEnd(text: string, start: number): number {
	if (isC1StringIntroducer(text.charCodeAt(start))) return start + 1;
	if (text.charCodeAt(start) === ESC && isStringIntroducer(text.charCodeAt(start + 1))) return start + 2;
	return text.length;
}

function isSequenceStart(code: number): boolean {
	return code === ESC || code === C1_CSI || isC1StringIntroducer(code);
}

/**
 * Where an escape sequence that the text ends inside starts, or -1: for text arriving in chunks, the part
 * to hold back until the next chunk completes it.
 */
export function unfinishedSequenceStart(text: string): number {
	let i = 0;
	while (i < text.length) {
		if (!isSequenceStart(text.charCodeAt(i))) {
			i++;
			continue;
		}
		const end = sequenceEnd(text, i);
		if (end === -1) return i;
		i = end;
	}
	return -1;
}

/**
 * The text without escape sequences (CSI, OSC, DCS, SOS, PM, APC, and the short ESC ones) and control
 * characters (C0, DEL, C1); newlines stay, "\r\n" becomes "\n". Tabs become spaces up to the next
 * TAB_STOP column (counted in characters since the line's start), unless `keepTabs`.
 */
export function stripControls(text: string, options: StripOptions = {}): string {
	const keepTabs = options.keepTabs === true;
	if (!(keepTabs ? HAS_CONTROL_KEEP_TAB : HAS_CONTROL_OR_TAB).test(text)) return text;
	let out = "";
	let lineStart = 0;
	let copied = 0;
	let i = 0;
	while (i < text.length) {
		const code = text.charCodeAt(i);
		if ((code >= 0x20 && code < 0x7f) || code >= 0xa0) {
			i++;
			continue;
		}
		out += text.slice(copied, i);
		if (code === 0x0a) {
			out += "\n";
			lineStart = out.length;
			i++;
		} else if (code === 0x09 && !keepTabs) {
			const column = out.length - lineStart;
			out += " ".repeat(TAB_STOP - (column % TAB_STOP));
			i++;
		} else if (code === 0x09) {
			out += "\t";
			i++;
		} else {
			const end = sequenceEnd(text, i);
			i = end === -1 ? cutSequenceEnd(text, i) : end;
		}
		copied = i;
	}
	return out + text.slice(copied);
}

/**
 * A command's captured output: on each line a carriage-return redraw (a progress bar) keeps only what was drawn
 * last, then everything stripControls removes goes; tabs stay, for the reader lays them out.
 */
export function stripCommandOutput(text: string): string {
	// Live output is stripped on every update, and most of it redraws nothing.
	if (!text.includes("\r")) return stripControls(text, { keepTabs: true });
	const lastDrawn = text
		.replace(/\r\n/g, "\n")
		.split("\n")
		.map((line) => line.slice(line.lastIndexOf("\r") + 1))
		.join("\n");
	return stripControls(lastDrawn, { keepTabs: true });
}

/** Prose for a single row (a status, a server's message): stripped, each run of whitespace one space. */
export function stripToOneLine(text: string): string {
	return stripControls(text, { keepTabs: true }).replace(/\s+/g, " ").trim();
}

/** Bidirectional overrides and isolates: they reorder what a row shows (a command could read backwards). */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;
const HAS_HIDDEN = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;
const HIDDEN = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function visible(char: string): string {
	const named = NAMED[char];
	if (named) return named;
	const code = char.charCodeAt(0);
	return BIDI.test(char) ? `\\u${code.toString(16)}` : `\\x${code.toString(16).padStart(2, "0")}`;
}

/**
 * The text with every control character (C0, DEL, C1) and bidirectional override written out as an escape
 * (`\x1b`, `\n`, `\u202e`), for one row that must show exactly what will run.
 */
export function showControls(text: string): string {
	if (!HAS_HIDDEN.test(text)) return text;
	return text.replace(HIDDEN, visible);
}
