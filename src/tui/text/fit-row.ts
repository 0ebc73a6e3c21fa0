// Fitting plain text (no escape sequences) into a number of columns: cut at its end or in its middle, the cut
// marked with "…". The footer and tool rows use these to shorten what may be shortened and keep the rest.
import { charWidth } from "./wrap.js";

const ELLIPSIS = "…";

export function columns(text: string): number {
	let used = 0;
	for (const char of text) used += charWidth(char);
	return used;
}

/** The longest start of `text` that takes at most `width` columns. */
function head(text: string, width: number): string {
	let used = 0;
	let end = 0;
	for (const char of text) {
		const w = charWidth(char);
		if (used + w > width) break;
		used += w;
		end += char.length;
	}
	return text.slice(0, end);
}

/** The longest end of `text` that takes at most `width` columns. */
function tail(text: string, width: number): string {
	const chars = [...text];
	let used = 0;
	let start = chars.length;
	while (start > 0 && used + charWidth(chars[start - 1]!) <= width) used += charWidth(chars[--start]!);
	return chars.slice(start).join("");
}

/** `text`, or its start and "…" in at most `width` columns. */
export function cutEnd(text: string, width: number): string {
	if (columns(text) <= width) return text;
	return width <= 0 ? "" : head(text, width - 1) + ELLIPSIS;
}

/** `text`, or its start, "…" and its end (the larger part: a path's last folders) in at most `width` columns. */
export function cutMiddle(text: string, width: number): string {
	if (columns(text) <= width) return text;
	if (width <= 1) return width === 1 ? ELLIPSIS : "";
	const room = width - 1;
	const start = head(text, Math.floor(room / 3));
	return start + ELLIPSIS + tail(text, room - columns(start));
}

/** The first of `variants` (longest first) that fits `width` columns; else the last, cut at its end. */
export function firstThatFits(variants: readonly string[], width: number): string {
	return variants.find((variant) => columns(variant) <= width) ?? cutEnd(variants.at(-1) ?? "", width);
}
