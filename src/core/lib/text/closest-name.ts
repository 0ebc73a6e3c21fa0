// "Did you mean": of some known names, the one a mistyped name most likely meant.
import { editDistance } from "./edit-distance.js";

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
