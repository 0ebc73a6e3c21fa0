// Matching what a person or a model typed against text: literally (a RegExp source that matches the text as
// itself), or nearly (how far apart two strings are, and "did you mean": the known name a mistyped one most likely
// meant).

/** `text` with every character that means something in a RegExp source escaped (`/` too), so it matches itself. */
export function escapeRegex(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * How far apart two strings are: the fewest single-character insertions, deletions and substitutions that turn
 * one into the other (Levenshtein distance).
 */
export function editDistance(a: string, b: string): number {
	if (a === b) return 0;
	if (a.length === 0) return b.length;
	if (b.length === 0) return a.length;
	let previous = new Uint32Array(b.length + 1).map((_, j) => j);
	let current = new Uint32Array(b.length + 1);
	for (let i = 1; i <= a.length; i++) {
		current[0] = i;
		for (let j = 1; j <= b.length; j++) {
			const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
			current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
		}
		[previous, current] = [current, previous];
	}
	return previous[b.length]!;
}

/**
 * The name in `known` nearest to `typed` (case ignored), when it is a near miss: at most a third of its length
 * apart (and at least one edit allowed). Undefined when none is that near.
 */
export function closestName(typed: string, known: readonly string[]): string | undefined {
	const query = typed.toLowerCase();
	const allowed = Math.max(1, Math.floor(query.length / 3));
	let best: { name: string; distance: number } | undefined;
	for (const name of known) {
		const distance = editDistance(query, name.toLowerCase());
		if (distance <= allowed && (!best || distance < best.distance)) best = { name, distance };
	}
	return best?.name;
}
