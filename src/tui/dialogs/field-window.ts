// The part of a one-line text field that fits `width` columns around the cursor. Pure.
import { charWidth } from "../text/index.js";

export interface FieldWindow {
	before: string;
	/** The character under the cursor (a space at the end). */
	at: string;
	after: string;
}

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
