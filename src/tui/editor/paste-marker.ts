// A large paste stands in the editor as one marker ("[pasted 200 lines]") and is sent whole: the marker is
// replaced by the pasted text when the prompt is sent (or handed to an external editor). A marker is one
// piece for every key: the cursor never stops inside it, and a deletion that reaches into it takes it whole,
// and with it the paste. Pure.

/** A paste of at least this many lines, or this many characters, becomes a marker. */
export const MARKER_MIN_LINES = 10;
export const MARKER_MIN_CHARS = 1000;

export interface Paste {
	marker: string;
	text: string;
}

/** A prompt as typed, with the pastes its markers stand for: what the editor's history recalls. */
export interface TypedPrompt {
	text: string;
	pastes?: readonly Paste[];
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

/** What newMarker writes. */
const MARKER = /\[pasted [\d,]+ (?:lines|chars)(?: #\d+)?\]/;

/** Whether `text` holds something written like a paste's marker. */
export function hasMarker(text: string): boolean {
	return MARKER.test(text);
}

/** The text with every marker still in it replaced by its paste. */
export function expandPastes(text: string, pastes: readonly Paste[]): string {
	let out = text;
	for (const paste of pastes) out = out.split(paste.marker).join(paste.text);
	return out;
}

interface Span {
	start: number;
	end: number;
}

/** Every place a marker of `pastes` stands in `text`. */
export function markerSpans(text: string, pastes: readonly Paste[]): Span[] {
	const spans: Span[] = [];
	for (const { marker } of pastes) {
		for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + marker.length)) spans.push({ start: at, end: at + marker.length });
	}
	return spans;
}

/** `cursor`, or when it is inside a marker, that marker's start or end (the side it was moving towards). */
export function cursorOutside(text: string, cursor: number, pastes: readonly Paste[], toward: "start" | "end"): number {
	const inside = markerSpans(text, pastes).find((span) => span.start < cursor && cursor < span.end);
	return inside ? inside[toward] : cursor;
}

/** The range `[start, end)` of `text` widened to take whole every marker it reaches into. */
export function wholeMarkers(text: string, range: Span, pastes: readonly Paste[]): Span {
	let { start, end } = range;
	for (const span of markerSpans(text, pastes)) {
		if (span.start < end && start < span.end) {
			start = Math.min(start, span.start);
			end = Math.max(end, span.end);
		}
	}
	return { start, end };
}

/** The pastes whose markers are no longer in `text`: sending it would leave them out. */
export function lostPastes(text: string, pastes: readonly Paste[]): Paste[] {
	return pastes.filter((paste) => !text.includes(paste.marker));
}
