// The live area's text rows, pure: the tail of a streaming answer, the thinking so far, and the tool call the
// model is still writing. Everything from the model is stripped of escape sequences (or, for a name, has its
// controls written out) before it is styled.
import { formatSize, showControls, stripControls } from "../../core/index.js";
import { renderMarkdown, openFenceLine, lastRows, truncateRow } from "../text/index.js";

/**
 * The tail of a streaming answer as terminal rows: only the last source lines are rendered (the finished
 * paragraphs already left for the scrollback); a cut inside a code fence re-opens the fence first.
 */
export function streamingRows(tail: string, width: number, maxRows: number): string[] {
	if (maxRows <= 0 || tail.trim() === "") return [];
	// Cut by lines, then by characters (one long paragraph), keeping well over what the rows can show.
	const keepLines = maxRows * 2 + 2;
	const keepChars = maxRows * width * 2 + 256;
	let cut = 0;
	let newlines = 0;
	for (let i = tail.length - 1; i >= 0; i--) {
		if (tail.charCodeAt(i) === 10 && ++newlines === keepLines) {
			cut = i + 1;
			break;
		}
	}
	if (tail.length - cut > keepChars) {
		const space = tail.indexOf(" ", tail.length - keepChars);
		cut = space === -1 ? tail.length - keepChars : space + 1;
	}
	let source = tail;
	if (cut > 0) {
		const fence = openFenceLine(tail.slice(0, cut));
		source = (fence !== undefined ? `${fence}\n` : "") + tail.slice(cut);
	}
	return lastRows(renderMarkdown(stripControls(source), width), width, maxRows).rows;
}

const THINKING_HEADER = "✻ Thinking…";

/**
 * The thinking so far after "✻ ", in at most `maxRows` rows. When it does not fit, a "✻ Thinking…" row and its
 * last rows: the mark stays in view, so the rows never read as the answer.
 */
export function thinkingRows(thinking: string, width: number, maxRows: number): string[] {
	if (maxRows <= 0 || thinking.trim() === "") return [];
	const text = `✻ ${stripControls(thinking.trim())}`;
	const whole = lastRows(text, width, maxRows);
	if (whole.hidden === 0) return whole.rows;
	return [truncateRow(THINKING_HEADER, width), ...whole.rows.slice(1)];
}

/** "bash call being written (1.2 KB)": a tool call whose arguments are still streaming. */
export function pendingCallText(pending: { name: string; chars: number }): string {
	return `${showControls(pending.name)} call being written${pending.chars > 0 ? ` (${formatSize(pending.chars)})` : ""}`;
}
