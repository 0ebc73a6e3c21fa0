// A large paste stands in the editor as one marker ("[pasted 200 lines]") and is sent whole: the marker is
// replaced by the pasted text when the prompt is sent (or handed to an external editor). A marker is one
// piece: Backspace or Delete next to it removes it, and with it the paste. Pure.

/** A paste of at least this many lines, or this many characters, becomes a marker. */
export const MARKER_MIN_LINES = 10;
export const MARKER_MIN_CHARS = 1000;

export interface Paste {
	marker: string;
	text: string;
}

export function isLargePaste(text: string): boolean {
	return text.length >= MARKER_MIN_CHARS || text.split("\n").length >= MARKER_MIN_LINES;
}

/** "[pasted 200 lines]" (or "[pasted 1,500 chars]" for a long line), with " #2" when that marker is taken. */
export function newMarker(text: string, pastes: readonly Paste[]): string {
	const lines = text.replace(/\n$/, "").split("\n").length;
	const what = lines > 1 ? `${lines} lines` : `${text.length.toLocaleString("en-US")} chars`;
	const taken = new Set(pastes.map((paste) => paste.marker));
	let marker = `[pasted ${what}]`;
	for (let n = 2; taken.has(marker); n++) marker = `[pasted ${what} #${n}]`;
	return marker;
}

/** The text with every marker still in it replaced by its paste. */
export function expandPastes(text: string, pastes: readonly Paste[]): string {
	let out = text;
	for (const paste of pastes) out = out.split(paste.marker).join(paste.text);
	return out;
}

/** The pastes whose markers are still in `text`. */
export function livePastes(text: string, pastes: readonly Paste[]): Paste[] {
	return pastes.filter((paste) => text.includes(paste.marker));
}

/** The marker that ends at `offset` (Backspace there removes it), or starts there (Delete). */
export function markerAt(text: string, offset: number, pastes: readonly Paste[], side: "before" | "after"): { start: number; end: number } | undefined {
	for (const { marker } of pastes) {
		const start = side === "before" ? offset - marker.length : offset;
		if (start >= 0 && text.startsWith(marker, start)) return { start, end: start + marker.length };
	}
	return undefined;
}
