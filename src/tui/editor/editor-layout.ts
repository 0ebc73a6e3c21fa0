// Lays the editor's text out in terminal rows of a given width, with the cursor's place, and picks the
// window of rows to show when the text is taller than the editor may be (a large paste).
import { showControls } from "../../core/index.js";
import { columns as textColumns, charWidth } from "../text/index.js";

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

/**
 * Splits one logical line into row segments [start, end) of at most `width` columns. A row ends after its last
 * blank when it has one (the blank stays on it, so every character keeps its place for the cursor), else
 * mid-word, as the transcript wraps.
 */
function segments(line: string, width: number): Array<[number, number]> {
	if (line === "") return [[0, 0]];
	const out: Array<[number, number]> = [];
	if (PRINTABLE_ASCII.test(line)) {
		let start = 0;
		while (line.length - start > width) {
			const blank = line.lastIndexOf(" ", start + width - 1);
			const end = blank > start ? blank + 1 : start + width;
			out.push([start, end]);
			start = end;
		}
		out.push([start, line.length]);
		return out;
	}
	let start = 0;
	let used = 0;
	let offset = 0;
	// Where a row may end after a blank, and the columns used up to there.
	let blankEnd = -1;
	let usedAtBlank = 0;
	for (const char of line) {
		// A tab is drawn as one space; another control character written out (see Editor's Row): "\x1b" is four columns.
		const shown = char === "\t" ? " " : showControls(char);
		const w = shown === char ? charWidth(char) : textColumns(shown);
		// A loop: what follows the blank may still leave no room for a wide character.
		while (used + w > width && offset > start) {
			const end = blankEnd > start ? blankEnd : offset;
			out.push([start, end]);
			used = end === offset ? 0 : used - usedAtBlank;
			start = end;
			blankEnd = -1;
		}
		used += w;
		offset += char.length;
		if (char === " " || char === "\t") {
			blankEnd = offset;
			usedAtBlank = used;
		}
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
