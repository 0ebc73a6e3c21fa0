// "Did you mean": the known models closest to an id that matched none, for the unknown-model error of -m,
// /model and --list-models.
import { editDistance } from "../../lib/index.js";
import type { Model } from "../llm-types.js";

/** How many suggestions an unknown-model message offers. */
const SUGGESTION_COUNT = 3;

/**
 * The `provider/id` names of the models most like `typed` (compared with both the id and provider/id, case
 * ignored), closest first. Only near misses count (a few typos, or a name that contains what was typed), and of
 * those only the nearest: one typo away hides three typos away.
 */
export function closestModels(typed: string, models: readonly Pick<Model, "provider" | "id">[], limit = SUGGESTION_COUNT): string[] {
	const query = typed.trim().toLowerCase();
	if (query === "") return [];
	const allowed = Math.max(2, Math.floor(query.length / 3));
	const scored: { name: string; score: number }[] = [];
	for (const model of models) {
		const name = `${model.provider}/${model.id}`;
		const id = model.id.toLowerCase();
		const full = name.toLowerCase();
		let score = Math.min(editDistance(query, id), editDistance(query, full));
		if (query.length >= 3) {
			// "sonnet" for claude-sonnet-5-5: a part of the name is as good as a typo or two...
			if (id.includes(query) || full.includes(query)) score = Math.min(score, 1 + (id.length - query.length) / 100);
			// ...and "sonet" is a typo in one of its words.
			for (const word of id.split(/[-./:_]/)) if (word.length >= 3) score = Math.min(score, editDistance(query, word) + 0.5);
		}
		if (score <= allowed) scored.push({ name, score });
	}
	scored.sort((a, b) => a.score - b.score || a.name.length - b.name.length);
	const best = scored[0]?.score ?? 0;
	return scored
		.filter((entry) => entry.score <= best + 1)
		.slice(0, limit)
		.map((entry) => entry.name);
}
