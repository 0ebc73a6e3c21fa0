// A pure function of a text, remembered for the texts it was last given. Ink measures and sanitises the text
// of every node again at each frame, though while an answer streams nearly all of it is the text of the frame
// before; the bundle puts remembered versions of those functions in Ink's place (rolldown.config.mjs).

/** Texts remembered at most; beyond, the memory starts again empty (a long stream keeps making new texts). */
const MAX_TEXTS = 2000;

/** `compute`, remembering its result for each text it is given; `compute` must depend on the text alone. */
export function memoizedText<T>(compute: (text: string) => T): (text: string) => T {
	const results = new Map<string, T>();
	return (text) => {
		const known = results.get(text);
		if (known !== undefined || results.has(text)) return known as T;
		const result = compute(text);
		if (results.size >= MAX_TEXTS) results.clear();
		results.set(text, result);
		return result;
	};
}
