// The rows of a notice's plain text. A notice is one text for every channel (the screen, stderr, an editor), so
// its lists are laid out with spaces, as /help's are: an indented line keeps its indent on the rows it wraps
// onto, and an indented line with a gap of two or more spaces is a table row, whose right cell wraps under its
// own column (or, when the left cell leaves it too little room, on rows of its own below it, indented further).
// A picker's long descriptions wrap the same way.
import { stripVTControlCharacters } from "node:util";
import stringWidth from "string-width";
import { wrapRows } from "./wrap.js";

/** Narrowest right column a table row keeps beside its left cell. */
const MIN_RIGHT_COLUMN = 16;

/** Extra indent of a right cell moved below its left cell. */
const BELOW_INDENT = "    ";

const TABLE_ROW = /^( +)(\S(?:.*?\S)?)( {2,})(\S.*)$/;

/** The rows of plain `text` (no escape sequences), none wider than `width`, plain and without trailing blanks. */
export function noticeRows(text: string, width: number): string[] {
	return text.split("\n").flatMap((line) => lineRows(line, Math.max(1, width)).map((row) => stripVTControlCharacters(row).trimEnd()));
}

function lineRows(line: string, width: number): string[] {
	if (line === "") return [""];
	const indent = /^ */.exec(line)![0];
	if (indent === "" || indent.length >= width) return wrapRows(line, width);
	const table = TABLE_ROW.exec(line);
	if (!table) return hanging(indent, line.slice(indent.length), width);
	const [, , left, gap, right] = table;
	const leftWidth = indent.length + stringWidth(left!) + gap!.length;
	if (width - leftWidth >= MIN_RIGHT_COLUMN) {
		const rows = wrapRows(right!, width - leftWidth);
		return rows.map((row, index) => (index === 0 ? indent + left + gap : " ".repeat(leftWidth)) + row);
	}
	const below = indent + BELOW_INDENT;
	return [...hanging(indent, left!, width), ...(below.length < width ? hanging(below, right!, width) : wrapRows(right!, width))];
}

/** `text` wrapped with `indent` before every row. */
function hanging(indent: string, text: string, width: number): string[] {
	return wrapRows(text, width - indent.length).map((row) => indent + row);
}
