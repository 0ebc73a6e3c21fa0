// Measuring styled text in terminal rows, so the live area can be capped below the terminal's height.
// Hand-written because it runs on every frame of a stream: wrap-ansi costs ~7 µs per character, this a
// fraction of that. Rows break at a space when one is in reach, else mid-word; styles carry over rows.
import stringWidth from "string-width";

// SGR (colour/style) sequences are tracked; other escape sequences are copied through without width.
const ESCAPE = /\u001b\[[0-9;]*m|\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/y;

/** The SGR state, by slot, so a row can re-open exactly the styles active where the previous one ended. */
type SgrState = Map<string, string>;

export function slotOf(code: number): string | undefined {
	if (code === 1 || code === 2 || code === 22) return "weight";
	if (code === 3 || code === 23) return "italic";
	if (code === 4 || code === 24) return "underline";
	if (code === 7 || code === 27) return "inverse";
	if (code === 9 || code === 29) return "strike";
	if ((code >= 30 && code <= 39) || (code >= 90 && code <= 97)) return "fg";
	if ((code >= 40 && code <= 49) || (code >= 100 && code <= 107)) return "bg";
	return undefined;
}

const RESETS = new Set([22, 23, 24, 27, 29, 39, 49]);

/** "\u001b[31m" → 31, or -1 when the sequence holds more than one code. */
function singleCode(sequence: string): number {
	let code = 0;
	for (let i = 2; i < sequence.length - 1; i++) {
		const digit = sequence.charCodeAt(i) - 48;
		if (digit < 0 || digit > 9) return -1;
		code = code * 10 + digit;
	}
	return code;
}

function applySgr(state: SgrState, sequence: string): void {
	// Almost every sequence chalk writes holds one code.
	const single = singleCode(sequence);
	if (single >= 0 && single !== 38 && single !== 48) {
		applyCode(state, single);
		return;
	}
	const body = sequence.slice(2, -1);
	const codes = body === "" ? [0] : body.split(";").map(Number);
	for (let i = 0; i < codes.length; i++) {
		const code = codes[i];
		if (code === 38 || code === 48) {
			// Extended colour: 38;5;n or 38;2;r;g;b
			const take = codes[i + 1] === 5 ? 3 : codes[i + 1] === 2 ? 5 : 1;
			state.set(code === 38 ? "fg" : "bg", `\u001b[${codes.slice(i, i + take).join(";")}m`);
			i += take - 1;
			continue;
		}
		applyCode(state, code);
	}
}

function applyCode(state: SgrState, code: number): void {
	if (code === 0) {
		state.clear();
		return;
	}
	const slot = slotOf(code);
	if (!slot) return;
	if (RESETS.has(code)) state.delete(slot);
	else state.set(slot, `\u001b[${code}m`);
}

function reopen(state: SgrState): string {
	return state.size === 0 ? "" : [...state.values()].join("");
}

/** string-width is slow per call (it segments graphemes); the characters of a text repeat. */
const widths = new Map<string, number>();

/** Columns one code point takes in a terminal. */
export function charWidth(char: string): number {
	const code = char.charCodeAt(0);
	if (code >= 0x20 && code < 0x7f) return 1;
	if (code < 0x20) return 0;
	let width = widths.get(char);
	if (width === undefined) {
		width = Math.max(0, stringWidth(char));
		if (widths.size < 4096) widths.set(char, width);
	}
	return width;
}

const ESCAPES = new RegExp(ESCAPE.source, "g");
/**
 * Characters one column wide each: printable ASCII, Latin and its modifiers, general punctuation (• …),
 * arrows, box drawing. (wrap.test.ts checks every one against string-width.)
 */
export const NARROW = /^[\x20-\x7e\xa0-\xac\xae-\u02ff\u2010-\u2027\u2030-\u205e\u2190-\u21ff\u2500-\u259f]*$/;

/** Wraps one line (no newlines) into rows of at most `width` columns. */
function wrapLine(line: string, width: number, state: SgrState): string[] {
	// Most lines are narrow characters that fit: one row as it is, only its styles to follow.
	const styled = line.includes("\u001b");
	const visible = styled ? line.replace(ESCAPES, "") : line;
	if (visible.length <= width && NARROW.test(visible)) {
		const row = reopen(state) + line;
		if (styled) {
			for (const [escape] of line.matchAll(ESCAPES)) if (escape.endsWith("m") && escape[1] === "[") applySgr(state, escape);
		}
		return [row];
	}
	return wrapLongLine(line, width, state);
}

function wrapLongLine(line: string, width: number, state: SgrState): string[] {
	const rows: string[] = [];
	let row = reopen(state);
	let used = 0;
	// Where the row could break at a space: offset in `row` after the space, and the columns up to there.
	let breakAt = -1;
	let breakUsed = 0;
	let breakState: SgrState | undefined;
	let i = 0;
	while (i < line.length) {
		ESCAPE.lastIndex = i;
		const escape = ESCAPE.exec(line);
		if (escape) {
			row += escape[0];
			if (escape[0].endsWith("m") && escape[0][1] === "[") applySgr(state, escape[0]);
			i += escape[0].length;
			continue;
		}
		const point = line.codePointAt(i) ?? 32;
		const char = String.fromCodePoint(point);
		const w = charWidth(char);
		if (used + w > width && used > 0) {
			if (breakAt > 0 && char !== " ") {
				// Move the partial word to the next row.
				const carried = row.slice(breakAt);
				rows.push(`${row.slice(0, breakAt)}\u001b[0m`);
				row = reopen(breakState ?? new Map()) + carried;
				used -= breakUsed;
			} else {
				rows.push(`${row}\u001b[0m`);
				row = reopen(state);
				used = 0;
				if (char === " ") {
					i += char.length;
					breakAt = -1;
					continue;
				}
			}
			breakAt = -1;
			if (used + w > width && used > 0) {
				rows.push(`${row}\u001b[0m`);
				row = reopen(state);
				used = 0;
			}
		}
		row += char;
		used += w;
		i += char.length;
		if (char === " ") {
			breakAt = row.length;
			breakUsed = used;
			breakState = new Map(state);
		}
	}
	rows.push(row);
	return rows;
}

/**
 * One row of at most `width` columns: a longer text is cut and ends with "…" (what Ink's
 * wrap="truncate-end" shows). Styles are closed after the cut.
 */
export function truncateRow(text: string, width: number): string {
	if (stringWidth(text) <= width) return text;
	if (width <= 0) return "";
	let row = "";
	let used = 0;
	let i = 0;
	while (i < text.length) {
		ESCAPE.lastIndex = i;
		const escape = ESCAPE.exec(text);
		if (escape) {
			row += escape[0];
			i += escape[0].length;
			continue;
		}
		const char = String.fromCodePoint(text.codePointAt(i) ?? 32);
		const w = charWidth(char);
		if (used + w > width - 1) break;
		row += char;
		used += w;
		i += char.length;
	}
	return `${row}…\u001b[0m`;
}

export function wrapRows(text: string, width: number): string[] {
	if (text === "") return [];
	const state: SgrState = new Map();
	return text.split("\n").flatMap((line) => wrapLine(line, Math.max(1, width), state));
}

export interface LastRows {
	rows: string[];
	/** What was left out above: wrapped rows of the line cut in two, plus whole source lines above it. */
	hidden: number;
}

/**
 * The last `max` terminal rows of a text. Works from the end, one source line at a time, so the cost
 * follows what is shown, not the length of the text. (Styles open across a cut line are not re-opened:
 * callers pass text whose styles close on each line, as chalk's do.)
 */
export function lastRows(text: string, width: number, max: number): LastRows {
	if (max <= 0 || text === "") return { rows: [], hidden: text === "" ? 0 : text.split("\n").length };
	const rows: string[] = [];
	let end = text.length;
	let hidden = 0;
	while (end >= 0) {
		const start = text.lastIndexOf("\n", end - 1);
		const line = text.slice(start + 1, end);
		end = start;
		if (rows.length >= max) {
			hidden++;
			if (start < 0) break;
			continue;
		}
		const wrapped = wrapLine(line, Math.max(1, width), new Map());
		const room = max - rows.length;
		if (wrapped.length > room) hidden += wrapped.length - room;
		rows.unshift(...wrapped.slice(Math.max(0, wrapped.length - room)));
		if (start < 0) break;
	}
	return { rows, hidden };
}
