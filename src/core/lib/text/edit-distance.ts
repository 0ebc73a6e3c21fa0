// How far apart two strings are: the fewest single-character insertions, deletions and substitutions
// that turn one into the other (Levenshtein distance).

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
