// A markdown table as a full grid that fits the width: columns get their natural width when it fits, else
// the room is shared out (no column narrower than its longest word while that is possible) and cells wrap.
// Cells come rendered (inline styles); the grid is dim. Pure.
import chalk from "chalk";
import stringWidth from "string-width";
import { wrapRows } from "./wrap.js";

export type CellAlign = "left" | "right" | "center" | null;

/** Columns no narrower than this when the table must shrink, unless even that cannot fit. */
const MIN_COLUMN = 3;

function longestWord(cell: string): number {
	let longest = 0;
	for (const word of cell.split(/\s+/)) longest = Math.max(longest, stringWidth(word));
	return longest;
}

/** Column widths whose sum is at most `room` (at least one column each), keeping natural widths when they fit. */
export function columnWidths(natural: readonly number[], words: readonly number[], room: number): number[] {
	const total = natural.reduce((sum, width) => sum + width, 0);
	if (total <= room) return [...natural];
	// Start from each column's longest word (capped at a fair share when those do not all fit), then share
	// what is left in proportion to what each column lacks.
	const wordWidths = natural.map((width, i) => Math.min(width, Math.max(MIN_COLUMN, words[i])));
	const fair = Math.floor(room / natural.length);
	let widths = wordWidths.reduce((sum, width) => sum + width, 0) <= room ? wordWidths : wordWidths.map((width) => Math.min(width, Math.max(MIN_COLUMN, fair)));
	let used = widths.reduce((sum, width) => sum + width, 0);
	if (used > room) {
		// Not even that fits: shrink in proportion, one column at least.
		widths = natural.map((width) => Math.max(1, Math.floor((width / total) * room)));
		used = widths.reduce((sum, width) => sum + width, 0);
	}
	let left = room - used;
	const wanting = natural.map((width, i) => width - widths[i]);
	const want = wanting.reduce((sum, value) => sum + value, 0);
	if (left > 0 && want > 0) {
		const shares = wanting.map((value) => Math.floor((value / want) * left));
		widths = widths.map((width, i) => width + shares[i]);
		left -= shares.reduce((sum, value) => sum + value, 0);
		for (let i = 0; left > 0 && i < widths.length; i++) {
			if (widths[i] < natural[i]) {
				widths[i]++;
				left--;
			}
		}
	}
	return widths;
}

function pad(text: string, width: number, align: CellAlign): string {
	const gap = Math.max(0, width - stringWidth(text));
	if (align === "right") return " ".repeat(gap) + text;
	if (align === "center") return " ".repeat(Math.floor(gap / 2)) + text + " ".repeat(Math.ceil(gap / 2));
	return text + " ".repeat(gap);
}

/** The grid: ┌─┬─┐ on top, the header, then each row, ruled between rows, └─┴─┘ below; no row wider than `width`. */
export function drawTable(header: readonly string[], rows: readonly (readonly string[])[], align: readonly CellAlign[], width: number): string {
	const columns = Math.max(header.length, ...rows.map((row) => row.length));
	const all = [header, ...rows].map((row) => Array.from({ length: columns }, (_, i) => row[i] ?? ""));
	const natural = Array.from({ length: columns }, (_, i) => Math.max(1, ...all.map((row) => stringWidth(row[i]))));
	const words = Array.from({ length: columns }, (_, i) => Math.max(1, ...all.map((row) => longestWord(row[i]))));
	// Each column has a space either side of its text and a bar on its right; one more bar on the left.
	const room = Math.max(columns, width - (3 * columns + 1));
	const widths = columnWidths(natural, words, room);
	const rule = (left: string, middle: string, right: string) => chalk.dim(left + widths.map((w) => "─".repeat(w + 2)).join(middle) + right);
	const bar = chalk.dim("│");
	const line = (cells: readonly string[]) => {
		const wrapped = cells.map((cell, i) => (cell === "" ? [""] : wrapRows(cell, widths[i])));
		const height = Math.max(...wrapped.map((lines) => lines.length));
		return Array.from({ length: height }, (_, r) => bar + wrapped.map((lines, i) => ` ${pad(lines[r] ?? "", widths[i], align[i] ?? null)} `).join(bar) + bar);
	};
	const out = [rule("┌", "┬", "┐"), ...line(all[0])];
	for (const row of all.slice(1)) out.push(rule("├", "┼", "┤"), ...line(row));
	out.push(rule("└", "┴", "┘"));
	return out.join("\n");
}
