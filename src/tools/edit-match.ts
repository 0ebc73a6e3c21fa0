// Finds where an edit's oldText sits in a file: exactly, then ignoring line endings, then tolerantly
// (Unicode compatibility forms, quotes, dashes, odd spaces, trailing whitespace). Matching happens on a
// normalised view that remembers where its pieces came from, so a match maps back to an exact range of the
// original text and everything outside that range keeps its bytes.

export type MatchLevel = "exact" | "line-endings" | "tolerant";

const MATCH_LEVELS: readonly MatchLevel[] = ["exact", "line-endings", "tolerant"];

/**
 * A piece of the view: either original text copied unchanged (`copy`), or one original character (or CRLF)
 * replaced by its normalised form. Dropped characters (trailing whitespace) fall between pieces.
 */
interface Segment {
	viewStart: number;
	length: number;
	origStart: number;
	origEnd: number;
	copy: boolean;
}

/** A normalised text and the pieces it was built from, in order. */
export interface TextView {
	text: string;
	segments: Segment[];
}

export type FindResult =
	| { kind: "found"; start: number; end: number; level: MatchLevel }
	| { kind: "ambiguous"; count: number; level: MatchLevel }
	| { kind: "missing" };

const SINGLE_QUOTES = /[\u2018\u2019\u201A\u201B\u2032\u2035]/g;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F\u2033\u2036]/g;
const DASHES = /[\u2010\u2011\u2012\u2013\u2014\u2015\u2212\uFE58\uFE63\uFF0D]/g;
// NFKD already turns most of these into a plain space; listed so the intent does not depend on it.
const SPACES = /[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/g;

/**
 * The tolerant form of a text. Applied per code point by the view: decomposition (NFKD) works code point by
 * code point, so texts equal under NFKC compare equal here too, while every output traces back to one input.
 */
export function foldText(text: string): string {
	return text
		.normalize("NFKD")
		.replace(SINGLE_QUOTES, "'")
		.replace(DOUBLE_QUOTES, '"')
		.replace(DASHES, "-")
		.replace(SPACES, " ");
}

const isBlank = (unit: string): boolean => unit === " " || unit === "\t" || /^[ \t]+$/.test(unit);

/** Builds the view of a level; `tolerant` adds folding and trailing-whitespace removal to CRLF → LF. */
export function buildView(original: string, tolerant: boolean): TextView {
	const parts: string[] = [];
	const segments: Segment[] = [];
	let viewLength = 0;
	let runStart = -1;
	let runEnd = -1;

	const closeRun = (): void => {
		if (runStart >= 0 && runEnd > runStart) {
			parts.push(original.slice(runStart, runEnd));
			segments.push({ viewStart: viewLength, length: runEnd - runStart, origStart: runStart, origEnd: runEnd, copy: true });
			viewLength += runEnd - runStart;
		}
		runStart = -1;
	};
	const copy = (start: number, end: number): void => {
		if (runStart >= 0 && runEnd === start) runEnd = end;
		else {
			closeRun();
			runStart = start;
			runEnd = end;
		}
	};
	const replace = (unit: string, start: number, end: number): void => {
		closeRun();
		if (unit.length === 0) return;
		parts.push(unit);
		segments.push({ viewStart: viewLength, length: unit.length, origStart: start, origEnd: end, copy: false });
		viewLength += unit.length;
	};
	const emit = (unit: string, start: number, end: number): void => {
		if (unit === original.slice(start, end)) copy(start, end);
		else replace(unit, start, end);
	};

	// Whitespace is held back until we know whether it trails its line.
	let pending: { unit: string; start: number; end: number }[] = [];
	const flushPending = (): void => {
		for (const p of pending) emit(p.unit, p.start, p.end);
		pending = [];
	};

	// Characters that may need work; runs of anything else are copied whole.
	const special = tolerant ? /[\r\n\t \u0080-\uffff]/g : /\r\n/g;
	let i = 0;
	while (i < original.length) {
		special.lastIndex = i;
		const next = special.exec(original)?.index ?? original.length;
		if (next > i) {
			if (pending.length > 0) flushPending();
			copy(i, next);
			i = next;
			continue;
		}
		const code = original.charCodeAt(i);
		if (code === 13) {
			if (original.charCodeAt(i + 1) === 10) {
				pending = [];
				replace("\n", i, i + 2);
				i += 2;
			} else {
				if (pending.length > 0) flushPending();
				copy(i, i + 1);
				i++;
			}
			continue;
		}
		if (code === 10) {
			pending = [];
			copy(i, i + 1);
			i++;
			continue;
		}
		if (code === 32 || code === 9) {
			pending.push({ unit: original[i]!, start: i, end: i + 1 });
			i++;
			continue;
		}
		const width = code >= 0xd800 && code <= 0xdbff && i + 1 < original.length ? 2 : 1;
		const unit = foldText(original.slice(i, i + width));
		if (isBlank(unit)) pending.push({ unit, start: i, end: i + width });
		else {
			if (pending.length > 0) flushPending();
			emit(unit, i, i + width);
		}
		i += width;
	}
	closeRun();
	return { text: parts.join(""), segments };
}

/** The same normalisation as buildView, for text that needs no way back to the original (oldText). */
export function normalizeForLevel(text: string, level: MatchLevel): string {
	if (level === "exact") return text;
	return buildView(text, level === "tolerant").text;
}

/** Every start index of needle in haystack, overlapping ones included. */
function findAll(haystack: string, needle: string): number[] {
	const found: number[] = [];
	for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) found.push(at);
	return found;
}

/** The segment holding view offset `offset`. */
function segmentAt(view: TextView, offset: number): Segment | undefined {
	let low = 0;
	let high = view.segments.length - 1;
	while (low <= high) {
		const mid = (low + high) >> 1;
		const segment = view.segments[mid]!;
		if (offset < segment.viewStart) high = mid - 1;
		else if (offset >= segment.viewStart + segment.length) low = mid + 1;
		else return segment;
	}
	return undefined;
}

/** Maps a view range to the original; undefined when it would start or end inside one replaced character. */
export function mapToOriginal(view: TextView, start: number, end: number): { start: number; end: number } | undefined {
	const first = segmentAt(view, start);
	const last = segmentAt(view, end - 1);
	if (!first || !last) return undefined;
	if (!first.copy && start !== first.viewStart) return undefined;
	if (!last.copy && end !== last.viewStart + last.length) return undefined;
	return {
		start: first.origStart + (start - first.viewStart),
		end: last.copy ? last.origStart + (end - last.viewStart) : last.origEnd,
	};
}

/** Lazily built views of one file, shared by all of its edits. */
export class FileViews {
	private readonly views = new Map<MatchLevel, TextView>();
	constructor(readonly original: string) {}

	view(level: Exclude<MatchLevel, "exact">): TextView {
		let view = this.views.get(level);
		if (!view) {
			view = buildView(this.original, level === "tolerant");
			this.views.set(level, view);
		}
		return view;
	}
}

/** Tries each level in turn; the first level with any match decides (one match: found, several: ambiguous). */
export function findOldText(files: FileViews, oldText: string): FindResult {
	for (const level of MATCH_LEVELS) {
		const needle = normalizeForLevel(oldText, level);
		if (needle.length === 0) continue;
		if (level === "exact") {
			const hits = findAll(files.original, needle);
			if (hits.length === 1) return { kind: "found", start: hits[0]!, end: hits[0]! + needle.length, level };
			if (hits.length > 1) return { kind: "ambiguous", count: hits.length, level };
			continue;
		}
		const view = files.view(level);
		const ranges = findAll(view.text, needle)
			.map((at) => mapToOriginal(view, at, at + needle.length))
			.filter((range) => range !== undefined);
		if (ranges.length === 1) return { kind: "found", ...ranges[0]!, level };
		if (ranges.length > 1) return { kind: "ambiguous", count: ranges.length, level };
	}
	return { kind: "missing" };
}
