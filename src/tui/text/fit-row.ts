// Fitting plain text (no escape sequences) into a number of columns: cut at its end or in its middle, the cut
// marked with "…". The footer and tool rows use these to shorten what may be shortened and keep the rest. A
// one-line text field shows the part around its cursor that fits.
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

export interface FieldWindow {
	before: string;
	/** The character under the cursor (a space at the end). */
	at: string;
	after: string;
}

/** The part of a one-line text field that fits `width` columns around the cursor. */
export function fieldWindow(text: string, cursor: number, width: number): FieldWindow {
	const chars = Array.from(text);
	let index = Array.from(text.slice(0, cursor)).length;
	index = Math.min(index, chars.length);
	const at = chars[index] ?? " ";
	// Take characters before the cursor while they fit (the cursor's cell included), then after it.
	let used = charWidth(at);
	let start = index;
	while (start > 0 && used + charWidth(chars[start - 1]) <= width) used += charWidth(chars[--start]);
	let end = index + 1;
	while (end < chars.length && used + charWidth(chars[end]) <= width) used += charWidth(chars[end++]);
	return { before: chars.slice(start, index).join(""), at, after: chars.slice(index + 1, Math.max(index + 1, end)).join("") };
}
