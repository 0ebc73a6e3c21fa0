// Finds where an edit's oldText sits in a file: exactly, then ignoring line endings, then tolerantly
// (Unicode compatibility forms, quotes, dashes, odd spaces, trailing whitespace). Matching happens on a
// normalised view that remembers where each of its characters came from, so a match maps back to an exact
// range of the original text and everything outside that range keeps its bytes.

export type MatchLevel = "exact" | "line-endings" | "tolerant";

export const MATCH_LEVELS: readonly MatchLevel[] = ["exact", "line-endings", "tolerant"];

/** A normalised text plus, per character, the original range [start, end) that produced it. */
export interface TextView {
	text: string;
	starts: number[];
	ends: number[];
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

/** The tolerant form of one code point. */
function foldCodePoint(char: string): string {
	// Per code point NFKD: decomposition works code point by code point, so equal NFKC strings compare equal
	// here too, while each output character still traces back to one input character.
	return char
		.normalize("NFKD")
		.replace(SINGLE_QUOTES, "'")
		.replace(DOUBLE_QUOTES, '"')
		.replace(DASHES, "-")
		.replace(SPACES, " ");
}

const isBlank = (unit: string): boolean => /^[ \t]+$/.test(unit);

/** Builds a view; `tolerant` adds folding and trailing-whitespace removal to line-ending normalisation. */
export function buildView(original: string, tolerant: boolean): TextView {
	const view: TextView = { text: "", starts: [], ends: [] };
	const parts: string[] = [];
	const emit = (unit: string, start: number, end: number): void => {
		parts.push(unit);
		for (let k = 0; k < unit.length; k++) {
			view.starts.push(start);
			view.ends.push(end);
		}
	};
	// Whitespace is held back until we know whether it trails its line.
	let pending: { unit: string; start: number; end: number }[] = [];
	const flush = (): void => {
		for (const p of pending) emit(p.unit, p.start, p.end);
		pending = [];
	};

	let i = 0;
	while (i < original.length) {
		if (original[i] === "\r" && original[i + 1] === "\n") {
			pending = [];
			emit("\n", i, i + 2);
			i += 2;
			continue;
		}
		const codePoint = original.codePointAt(i)!;
		const width = codePoint > 0xffff ? 2 : 1;
		const char = original.slice(i, i + width);
		if (char === "\n") {
			pending = [];
			emit("\n", i, i + 1);
		} else if (!tolerant) {
			emit(char, i, i + width);
		} else {
			const unit = foldCodePoint(char);
			if (isBlank(unit)) pending.push({ unit, start: i, end: i + width });
			else {
				flush();
				if (unit.length > 0) emit(unit, i, i + width);
			}
		}
		i += width;
	}
	view.text = parts.join("");
	return view;
}

/** The same normalisation as buildView, for text that needs no position map (oldText). */
export function normalizeForLevel(text: string, level: MatchLevel): string {
	if (level === "exact") return text;
	return buildView(text, level === "tolerant").text;
}

/** Every start index of needle in haystack, overlapping ones included. */
export function findAll(haystack: string, needle: string): number[] {
	const found: number[] = [];
	for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) found.push(at);
	return found;
}

/** A view match is usable only if it starts and ends on whole original characters. */
function alignedRange(view: TextView, start: number, end: number): { start: number; end: number } | undefined {
	if (start > 0 && view.starts[start - 1] === view.starts[start]) return undefined;
	if (end < view.text.length && view.ends[end] === view.ends[end - 1]) return undefined;
	return { start: view.starts[start]!, end: view.ends[end - 1]! };
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
			.map((at) => alignedRange(view, at, at + needle.length))
			.filter((range) => range !== undefined);
		if (ranges.length === 1) return { kind: "found", ...ranges[0]!, level };
		if (ranges.length > 1) return { kind: "ambiguous", count: ranges.length, level };
	}
	return { kind: "missing" };
}
