// When oldText is not in the file, point the model at the lines that look most like it. Two passes keep this
// cheap on large files: a quick bigram score of every line against oldText's first line picks a few
// candidates, then an edit-distance score of whole windows picks the best of them.
import { editDistance } from "../core/index.js";
import { foldText } from "./edit-match.js";

export interface ClosestLines {
	/** 1-indexed line where the window starts. */
	startLine: number;
	lines: string[];
	/** 0 (nothing alike) to 1 (equal after folding). */
	score: number;
}

const CANDIDATES = 32;
/** Longer lines are compared by their start only: enough to tell them apart, and bounded in cost. */
const COMPARED_CHARS = 240;

/** Trimmed, tolerant-folded, inner whitespace collapsed. */
function comparable(line: string): string {
	// biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII range check
	const folded = /[^\u0000-\u007f]/.test(line) ? foldText(line) : line;
	return folded.trim().replace(/\s+/g, " ");
}

function bigramSet(text: string): Set<number> {
	const grams = new Set<number>();
	for (let i = 0; i + 1 < text.length; i++) grams.add(text.charCodeAt(i) * 65536 + text.charCodeAt(i + 1));
	return grams;
}

/** Dice coefficient of the line's bigrams against a target set, without keeping the line's set. */
function bigramScore(text: string, target: Set<number>, seen: Set<number>): number {
	if (target.size === 0) return text.length < 2 ? 1 : 0;
	seen.clear();
	let shared = 0;
	for (let i = 0; i + 1 < text.length; i++) {
		const gram = text.charCodeAt(i) * 65536 + text.charCodeAt(i + 1);
		if (seen.has(gram)) continue;
		seen.add(gram);
		if (target.has(gram)) shared++;
	}
	return (2 * shared) / (seen.size + target.size);
}

/** 1 - Levenshtein distance / longer length. */
function editSimilarity(a: string, b: string): number {
	const x = a.slice(0, COMPARED_CHARS);
	const y = b.slice(0, COMPARED_CHARS);
	if (x.length === 0 && y.length === 0) return 1;
	return 1 - editDistance(x, y) / Math.max(x.length, y.length);
}

/** The window of file lines most like oldText's first lines, or undefined if nothing is close. */
export function findClosestLines(content: string, oldText: string, maxLines = 8, minScore = 0.5): ClosestLines | undefined {
	const fileLines = content.split(/\r?\n/);
	const wanted = oldText.split(/\r?\n/).map(comparable);
	while (wanted.length > 1 && wanted[wanted.length - 1] === "") wanted.pop();
	const width = Math.min(wanted.length, maxLines);
	const anchor = wanted.findIndex((line) => line.length > 0);
	if (anchor === -1 || anchor >= width) return undefined;

	// Pass 1: the lines most like the first non-blank line of oldText.
	const target = bigramSet(wanted[anchor]!);
	const seen = new Set<number>();
	const top: { start: number; score: number }[] = [];
	for (let i = 0; i < fileLines.length; i++) {
		const start = i - anchor;
		if (start < 0) continue;
		const score = bigramScore(comparable(fileLines[i]!), target, seen);
		if (top.length === CANDIDATES && score <= top[top.length - 1]!.score) continue;
		top.push({ start, score });
		top.sort((a, b) => b.score - a.score);
		if (top.length > CANDIDATES) top.pop();
	}

	// Pass 2: whole windows of the candidates, by edit distance.
	let best: ClosestLines | undefined;
	for (const { start } of top) {
		let total = 0;
		for (let k = 0; k < width; k++) total += editSimilarity(comparable(fileLines[start + k] ?? ""), wanted[k]!);
		const score = total / width;
		if (!best || score > best.score) best = { startLine: start + 1, lines: fileLines.slice(start, start + width), score };
	}
	return best && best.score >= minScore ? best : undefined;
}

export function formatClosestLines(closest: ClosestLines): string {
	const end = closest.startLine + closest.lines.length - 1;
	const body = closest.lines.map((line, i) => `${closest.startLine + i}: ${line}`).join("\n");
	return `The most similar lines in the file (lines ${closest.startLine}-${end}):\n${body}`;
}
