// Measuring text in terminal rows, so the live area can be capped below the terminal's height.
// Wraps exactly like Ink's <Text wrap="wrap"> (wrap-ansi, hard, untrimmed): Ink then has nothing left to wrap.
import wrapAnsi from "wrap-ansi";

export function wrapRows(text: string, width: number): string[] {
	if (text === "") return [];
	return wrapAnsi(text, Math.max(1, width), { hard: true, trim: false }).split("\n");
}

export interface LastRows {
	rows: string[];
	/** What was left out above: wrapped rows of the line cut in two, plus whole source lines above it. */
	hidden: number;
}

/**
 * The last `max` terminal rows of a text. Works from the end, one source line at a time, so the cost
 * follows what is shown, not the length of the text.
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
		const wrapped = wrapRows(line, width);
		const lineRows = wrapped.length === 0 ? [""] : wrapped;
		const room = max - rows.length;
		if (lineRows.length > room) hidden += lineRows.length - room;
		rows.unshift(...lineRows.slice(Math.max(0, lineRows.length - room)));
		if (start < 0) break;
	}
	return { rows, hidden };
}
