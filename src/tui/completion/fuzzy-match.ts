// Fuzzy matching for pickers, the command popup and path completion: the query's characters must appear in
// the text in order (case-insensitive); matches at word starts, in runs, near the start and in short texts
// score higher. Pure and allocation-light: path completion scores tens of thousands of paths per keystroke.

const BOUNDARY = /[\s/\\_\-.:@]/;

function isBoundary(text: string, index: number): boolean {
	if (index === 0) return true;
	const before = text[index - 1];
	if (BOUNDARY.test(before)) return true;
	// camelCase: a capital after a lowercase letter starts a word.
	const at = text[index];
	return at !== at.toLowerCase() && before === before.toLowerCase() && before !== before.toUpperCase();
}

/**
 * How well `query` matches `text`; undefined when it does not. An empty query matches everything with 0.
 * `lowerText` may be passed when the caller keeps texts lowercased already.
 */
export function fuzzyScore(query: string, text: string, lowerText = text.toLowerCase()): number | undefined {
	if (query === "") return 0;
	const q = query.toLowerCase();
	// Forward: the earliest end of a match; backward from there: the tightest start.
	let qi = 0;
	let end = -1;
	for (let i = 0; i < lowerText.length && qi < q.length; i++) {
		if (lowerText.charCodeAt(i) === q.charCodeAt(qi)) {
			qi++;
			if (qi === q.length) end = i;
		}
	}
	if (end === -1) return undefined;
	const positions: number[] = new Array(q.length);
	qi = q.length - 1;
	for (let i = end; i >= 0 && qi >= 0; i--) {
		if (lowerText.charCodeAt(i) === q.charCodeAt(qi)) positions[qi--] = i;
	}
	let score = 0;
	for (let k = 0; k < positions.length; k++) {
		const at = positions[k];
		score += 1;
		if (isBoundary(text, at)) score += 8;
		if (k > 0 && positions[k - 1] === at - 1) score += 5;
		else if (k > 0) score -= Math.min(3, (at - positions[k - 1] - 1) * 0.5);
	}
	score -= positions[0] * 0.1;
	score -= lowerText.length * 0.01;
	return score;
}

/** Every space-separated term must match; the score is their sum. */
export function fuzzyScoreTerms(terms: readonly string[], text: string, lowerText = text.toLowerCase()): number | undefined {
	let total = 0;
	for (const term of terms) {
		const score = fuzzyScore(term, text, lowerText);
		if (score === undefined) return undefined;
		total += score;
	}
	return total;
}

export function queryTerms(query: string): string[] {
	return query.trim().split(/\s+/).filter((term) => term !== "");
}

/**
 * The items matching `query`, best first (ties keep their order); all of them, in order, for an empty query.
 * `limit` stops sorting past what will be shown.
 */
export function fuzzyFilter<T>(items: readonly T[], query: string, textOf: (item: T) => string, limit = Number.POSITIVE_INFINITY): T[] {
	const terms = queryTerms(query);
	if (terms.length === 0) return items.slice(0, limit);
	const scored: { item: T; score: number; index: number }[] = [];
	items.forEach((item, index) => {
		const score = fuzzyScoreTerms(terms, textOf(item));
		if (score !== undefined) scored.push({ item, score, index });
	});
	scored.sort((a, b) => b.score - a.score || a.index - b.index);
	return scored.slice(0, limit).map((entry) => entry.item);
}
