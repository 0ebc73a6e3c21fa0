// When oldText is not in the file, point the model at the lines that look most like it.
import { normalizeForLevel } from "./edit-match.js";

/** Character bigrams of a line, after the tolerant folding and trimming. */
function bigrams(line: string): Set<string> {
	const text = normalizeForLevel(line.trim(), "tolerant").replace(/\s+/g, " ");
	const grams = new Set<string>();
	for (let i = 0; i < text.length - 1; i++) grams.add(text.slice(i, i + 2));
	if (text.length === 1) grams.add(text);
	return grams;
}

/** Dice coefficient of two bigram sets: 1 for equal lines, 0 for nothing in common. */
function similarity(a: Set<string>, b: Set<string>): number {
	if (a.size === 0 && b.size === 0) return 1;
	if (a.size === 0 || b.size === 0) return 0;
	const [small, large] = a.size <= b.size ? [a, b] : [b, a];
	let shared = 0;
	for (const gram of small) if (large.has(gram)) shared++;
	return (2 * shared) / (a.size + b.size);
}

export interface ClosestLines {
	/** 1-indexed line where the window starts. */
	startLine: number;
	lines: string[];
	score: number;
}

/** The window of file lines most similar to oldText's first lines, or undefined if nothing is close. */
export function findClosestLines(content: string, oldText: string, maxLines = 8, minScore = 0.4): ClosestLines | undefined {
	const fileLines = content.split(/\r?\n/);
	const oldLines = oldText.split(/\r?\n/);
	while (oldLines.length > 1 && oldLines[oldLines.length - 1]!.trim() === "") oldLines.pop();
	const width = Math.min(oldLines.length, maxLines);
	const wanted = oldLines.slice(0, width).map(bigrams);
	const have = fileLines.map(bigrams);

	let best: ClosestLines | undefined;
	for (let start = 0; start < fileLines.length; start++) {
		let total = 0;
		for (let k = 0; k < width; k++) total += similarity(wanted[k]!, have[start + k] ?? new Set());
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
