// Lays the editor's text out in terminal rows of a given width, with the cursor's place, and picks the
// window of rows to show when the text is taller than the editor may be (a large paste).
import { showControls } from "../core/text/sanitize-terminal.js";
import { columns as textColumns } from "./fit-row.js";
import { charWidth } from "./wrap.js";

export interface EditorRow {
	text: string;
	/** Offset of the cursor within `text` when the cursor is on this row (may equal text.length). */
	cursor?: number;
}

export interface EditorLayout {
	rows: EditorRow[];
	hiddenAbove: number;
	hiddenBelow: number;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Splits one logical line into row segments [start, end) of at most `width` columns. */
function segments(line: string, width: number): Array<[number, number]> {
	if (line === "") return [[0, 0]];
	if (PRINTABLE_ASCII.test(line)) {
		const out: Array<[number, number]> = [];
		for (let start = 0; start < line.length; start += width) out.push([start, Math.min(line.length, start + width)]);
		return out;
	}
	const out: Array<[number, number]> = [];
	let start = 0;
	let used = 0;
	let offset = 0;
	for (const char of line) {
		// A tab is drawn as one space; another control character written out (see Editor's Row): "\x1b" is four columns.
		const shown = char === "\t" ? " " : showControls(char);
		const w = shown === char ? charWidth(char) : textColumns(shown);
		if (used + w > width && offset > start) {
			out.push([start, offset]);
			start = offset;
			used = 0;
		}
		used += w;
		offset += char.length;
	}
	out.push([start, offset]);
	return out;
}

export function layoutEditor(text: string, cursor: number, width: number, maxRows: number): EditorLayout {
	const columns = Math.max(1, width);
	const rows: EditorRow[] = [];
	let cursorRow = 0;
	let lineOffset = 0;
	for (const line of text.split("\n")) {
		const parts = segments(line, columns);
		parts.forEach(([start, end], index) => {
			const absStart = lineOffset + start;
			const absEnd = lineOffset + end;
			const isLast = index === parts.length - 1;
			const row: EditorRow = { text: line.slice(start, end).replace(/\t/g, " ") };
			// The cursor belongs to this row when inside it, or at its end if this is the line's last row.
			if (cursor >= absStart && (cursor < absEnd || (isLast && cursor === absEnd))) {
				row.cursor = cursor - absStart;
				cursorRow = rows.length;
			}
			rows.push(row);
		});
		lineOffset += line.length + 1;
	}
	const limit = Math.max(1, maxRows);
	if (rows.length <= limit) return { rows, hiddenAbove: 0, hiddenBelow: 0 };
	const first = Math.min(Math.max(0, cursorRow - limit + 1), rows.length - limit);
	return { rows: rows.slice(first, first + limit), hiddenAbove: first, hiddenBelow: rows.length - first - limit };
}
