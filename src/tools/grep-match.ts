// grep's matching, pure: which lines of a text match, and the lines a file contributes to the output
// (matches as "path:line:text", context as "path-line-text", "--" between groups that are not adjacent).
import { escapeRegex, errorMessage } from "../core/index.js";

export interface LineMatcher {
	/** Whether one line (without its line ending) matches. */
	test(line: string): boolean;
	/**
	 * False only when no line of `text` can match (a cheap look at the whole file first): set for literal text,
	 * where it is exact. A regex is tested line by line only: on a whole file, a pattern such as [^x]*y would
	 * backtrack over the file's length at every position.
	 */
	mayMatch(text: string): boolean;
	/**
	 * UTF-8 bytes every matching line holds, when known: a file's bytes without them are passed over before being
	 * decoded. Case-sensitive patterns only, and only text that decodes back to itself with no U+FFFD (a file's
	 * invalid bytes decode to it, so its text could hold the character where its bytes do not).
	 */
	needle?: Buffer;
}

/** A longer line is shown cut to this many characters (minified code, data on one line). */
export const MAX_LINE_CHARS = 500;

const REGEX_SYNTAX = /[\\^$.*+?()[\]{}|]/;

/** Matches `pattern` as a JavaScript regex, or as text when `literal` (or when it holds no regex syntax at all). */
export function lineMatcher(pattern: string, options: { literal?: boolean; ignoreCase?: boolean }): LineMatcher {
	if (pattern === "") throw new Error("pattern is empty: give the text or regex to search for.");
	const literal = options.literal === true || !REGEX_SYNTAX.test(pattern);
	const needle = options.ignoreCase ? undefined : bytesOf(requiredText(pattern, options));
	if (literal && !options.ignoreCase) return { test: (line) => line.includes(pattern), mayMatch: (text) => text.includes(pattern), needle };
	const source = literal ? escapeRegex(pattern) : pattern;
	let regex: RegExp;
	try {
		regex = new RegExp(source, options.ignoreCase ? "i" : "");
	} catch (error) {
		throw new Error(`Invalid regular expression ${pattern}: ${errorMessage(error).replace(/^Invalid regular expression: /, "")}. Pass literal: true to search for the text as written.`);
	}
	return { test: (line) => regex.test(line), mayMatch: (text) => !literal || regex.test(text), needle };
}

function bytesOf(text: string | undefined): Buffer | undefined {
	if (text === undefined || text.includes("\uFFFD")) return undefined;
	const bytes = Buffer.from(text, "utf8");
	return bytes.toString("utf8") === text ? bytes : undefined;
}

export interface FileMatches {
	/** Output lines for this file, "--" separators included. */
	lines: string[];
	/** Matching lines found (at most the `limit` given). */
	matches: number;
	/** Some lines were cut to MAX_LINE_CHARS. */
	longLines: boolean;
}

/**
 * The output lines of one file's first `limit` matching lines with `context` lines around each (groups that
 * touch are merged). `shown` is the file's path as results show it. Lines end at "\n"; a "\r" before it is dropped.
 */
export function matchLines(text: string, matcher: LineMatcher, shown: string, context: number, limit: number): FileMatches {
	const lines = text.split("\n");
	if (lines[lines.length - 1] === "") lines.pop();
	const line = (index: number) => {
		const raw = lines[index]!;
		return raw.endsWith("\r") ? raw.slice(0, -1) : raw;
	};
	const hits: number[] = [];
	for (let i = 0; i < lines.length && hits.length < limit; i++) if (matcher.test(line(i))) hits.push(i);

	const kinds = new Map<number, boolean>();
	for (const hit of hits) {
		for (let i = Math.max(0, hit - context); i <= Math.min(lines.length - 1, hit + context); i++) if (!kinds.has(i)) kinds.set(i, false);
		kinds.set(hit, true);
	}
	const output: string[] = [];
	let previous = -1;
	let longLines = false;
	for (const index of [...kinds.keys()].sort((a, b) => a - b)) {
		if (context > 0 && previous >= 0 && index > previous + 1) output.push("--");
		let text = line(index);
		if (text.length > MAX_LINE_CHARS) {
			text = `${text.slice(0, MAX_LINE_CHARS)}…`;
			longLines = true;
		}
		const separator = kinds.get(index) ? ":" : "-";
		output.push(`${shown}${separator}${index + 1}${separator}${text}`);
		previous = index;
	}
	return { lines: output, matches: hits.length, longLines };
}

/** Characters that stand for themselves in a regex, outside a class. */
const PLAIN = /[A-Za-z0-9_\- :=,;'"/<>!@#%&~`]/;

/**
 * A piece of text every line `pattern` matches must contain (for a first pass that only names files holding
 * it), or undefined when none is known. Read conservatively: an alternation gives none, groups, classes and
 * escapes end a piece, a character a ?, * or {…} makes optional is left out. With ignoreCase, only ASCII text.
 */
export function requiredText(pattern: string, options: { literal?: boolean; ignoreCase?: boolean }): string | undefined {
	const ascii = (text: string | undefined) => (text !== undefined && text !== "" && (!options.ignoreCase || /^[\x20-\x7e]*$/.test(text)) ? text : undefined);
	if (options.literal === true || !REGEX_SYNTAX.test(pattern)) return ascii(pattern.includes("\n") ? undefined : pattern);
	if (/\\[xuckpP0-9]/.test(pattern)) return undefined;
	let best = "";
	let run = "";
	const end = () => {
		if (run.length > best.length) best = run;
		run = "";
	};
	for (let at = 0; at < pattern.length; at++) {
		const char = pattern[at]!;
		if (char === "\\") {
			end();
			at++;
			continue;
		}
		if (char === "|") return undefined;
		if (char === "[") {
			end();
			for (at++; at < pattern.length && pattern[at] !== "]"; at++) if (pattern[at] === "\\") at++;
			continue;
		}
		if (char === "(") {
			end();
			for (let depth = 1; depth > 0 && ++at < pattern.length; ) {
				const inner = pattern[at];
				if (inner === "\\") at++;
				else if (inner === "|" && depth === 1 && pattern[at - 1] !== "\\") continue;
				else if (inner === "(") depth++;
				else if (inner === ")") depth--;
				else if (inner === "[") for (at++; at < pattern.length && pattern[at] !== "]"; at++) if (pattern[at] === "\\") at++;
			}
			continue;
		}
		if (!PLAIN.test(char)) {
			end();
			continue;
		}
		const next = pattern[at + 1];
		if (next === "?" || next === "*" || next === "{") {
			end();
			continue;
		}
		run += char;
		if (next === "+") end();
	}
	end();
	return ascii(best || undefined);
}
