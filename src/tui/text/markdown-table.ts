// A markdown table that fits the width: a full grid whose columns get their natural width when it fits, else
// the room is shared out (no column narrower than its longest word while that is possible, never narrower than
// its widest character) and cells wrap; a table too wide for any grid becomes one record per row.
// Cells come rendered (inline styles); the grid is dim. Pure.
import { stripVTControlCharacters } from "node:util";
import chalk from "chalk";
import stringWidth from "string-width";
import { charWidth, wrapRows } from "./wrap.js";

export type CellAlign = "left" | "right" | "center" | null;

/** Columns no narrower than this when the table must shrink, unless even that cannot fit. */
const MIN_COLUMN = 3;

function longestWord(cell: string): number {
	let longest = 0;
	for (const word of cell.split(/\s+/)) longest = Math.max(longest, stringWidth(word));
	return longest;
}

/** The widest character of a cell: a column narrower than that would cut it (or overflow the line). */
function widestChar(cell: string): number {
	let widest = 1;
	for (const char of stripVTControlCharacters(cell)) widest = Math.max(widest, charWidth(char));
	return widest;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/** Widths grown toward `target` within `room`: all the way when it fits, else each in proportion to what it lacks. */
function grow(widths: readonly number[], target: readonly number[], room: number): number[] {
	const grown = widths.map((width, i) => Math.max(width, target[i]!));
	let left = room - sum(widths);
	if (sum(grown) <= room) return grown;
	if (left <= 0) return [...widths];
	const wanting = widths.map((width, i) => grown[i]! - width);
	const want = sum(wanting);
	const shares = wanting.map((value) => Math.floor((value / want) * left));
	const result = widths.map((width, i) => width + shares[i]!);
	left -= sum(shares);
	for (let i = 0; left > 0 && i < result.length; i++) {
		if (result[i]! < grown[i]!) {
			result[i]!++;
			left--;
		}
	}
	return result;
}

/**
 * Column widths whose sum is at most `room` when the `least` widths fit it, keeping natural widths when they fit:
 * each column gets its least, then as far as the room goes its longest word (at least MIN_COLUMN), then a share of
 * the rest in proportion to what it lacks.
 */
export function columnWidths(natural: readonly number[], words: readonly number[], room: number, least: readonly number[] = natural.map(() => 1)): number[] {
	if (sum(natural) <= room) return [...natural];
	const start = least.map((width, i) => Math.min(natural[i]!, width));
	const wordWidths = natural.map((width, i) => Math.min(width, Math.max(MIN_COLUMN, words[i]!)));
	return grow(grow(start, wordWidths, room), natural, room);
}

function pad(text: string, width: number, align: CellAlign): string {
	const gap = Math.max(0, width - stringWidth(text));
	if (align === "right") return " ".repeat(gap) + text;
	if (align === "center") return " ".repeat(Math.floor(gap / 2)) + text + " ".repeat(Math.ceil(gap / 2));
	return text + " ".repeat(gap);
}

/**
 * A table in `width` columns, never wider and never cutting a character: a full grid, a space either side of each
 * cell, when every column can keep its longest word; else the same grid without those spaces; else that grid
 * with words broken (no column under MIN_COLUMN); and when even that cannot fit (many columns of wide
 * characters), each row as a record: a line per cell, "header: text", between rules.
 */
export function drawTable(header: readonly string[], rows: readonly (readonly string[])[], align: readonly CellAlign[], width: number): string {
	const columns = Math.max(header.length, ...rows.map((row) => row.length));
	const all = [header, ...rows].map((row) => Array.from({ length: columns }, (_, i) => row[i] ?? ""));
	const natural = Array.from({ length: columns }, (_, i) => Math.max(1, ...all.map((row) => stringWidth(row[i]))));
	const words = Array.from({ length: columns }, (_, i) => Math.max(1, ...all.map((row) => longestWord(row[i]))));
	const chars = Array.from({ length: columns }, (_, i) => Math.max(...all.map((row) => widestChar(row[i]))));
	const wholeWords = natural.map((value, i) => Math.max(chars[i]!, Math.min(value, Math.max(MIN_COLUMN, words[i]!))));
	const brokenWords = natural.map((value, i) => Math.max(chars[i]!, Math.min(value, MIN_COLUMN)));
	// Words whole with padding, then without; words broken only without (the room it saves breaks fewer).
	const layouts = [
		{ least: wholeWords, padding: 1 },
		{ least: wholeWords, padding: 0 },
		{ least: brokenWords, padding: 0 },
	];
	for (const { least, padding } of layouts) {
		// Each column has its padding either side of its text and a bar on its right; one more bar on the left.
		const room = width - (columns * (2 * padding + 1) + 1);
		if (sum(least) <= room) return drawGrid(all, align, columnWidths(natural, words, room, least), padding);
	}
	return drawRecords(all, width);
}

/** The grid: ┌─┬─┐ on top, the header, then each row, ruled between rows, └─┴─┘ below. */
function drawGrid(all: readonly (readonly string[])[], align: readonly CellAlign[], widths: readonly number[], padding: number): string {
	const space = " ".repeat(padding);
	const rule = (left: string, middle: string, right: string) => chalk.dim(left + widths.map((w) => "─".repeat(w + 2 * padding)).join(middle) + right);
	const bar = chalk.dim("│");
	const line = (cells: readonly string[]) => {
		const wrapped = cells.map((cell, i) => (cell === "" ? [""] : wrapRows(cell, widths[i]!)));
		const height = Math.max(...wrapped.map((lines) => lines.length));
		return Array.from({ length: height }, (_, r) => bar + wrapped.map((lines, i) => space + pad(lines[r] ?? "", widths[i]!, align[i] ?? null) + space).join(bar) + bar);
	};
	const out = [rule("┌", "┬", "┐"), ...line(all[0]!)];
	for (const row of all.slice(1)) out.push(rule("├", "┼", "┤"), ...line(row));
	out.push(rule("└", "┴", "┘"));
	return out.join("\n");
}

/** Each row as "header: text" lines (a long one wrapped under itself, indented), rows between rules. */
function drawRecords(all: readonly (readonly string[])[], width: number): string {
	const [header, ...rows] = all;
	const rule = chalk.dim("─".repeat(Math.max(1, width)));
	const out = [rule];
	for (const row of rows) {
		row.forEach((cell, i) => {
			const [first = "", ...rest] = wrapRows(`${header![i] ?? ""}: ${cell}`, Math.max(1, width - 2));
			out.push(first, ...rest.map((text) => `  ${text}`));
		});
		out.push(rule);
	}
	return out.join("\n");
}
