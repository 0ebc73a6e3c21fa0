import { describe, expect, it } from "vitest";
import { buildView, FileViews, findOldText, mapToOriginal, normalizeForLevel } from "../../src/tools/edit-match.js";

function random(seed: number) {
	let state = seed >>> 0;
	return (below: number) => {
		state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
		return state % below;
	};
}

describe("normalised views", () => {
	it("turns CRLF into LF and, when tolerant, drops trailing blanks and folds look-alikes", () => {
		expect(buildView("a\r\nb \t\r\nc", false).text).toBe("a\nb \t\nc");
		expect(buildView("a\r\nb \t\r\nc", true).text).toBe("a\nb\nc");
		expect(buildView("“x” – ‘y’\u00A0ﬁ  \n", true).text).toBe(`"x" - 'y' fi\n`);
		expect(buildView("a\rb", true).text).toBe("a\rb");
	});

	it("maps a match back over dropped whitespace and replaced characters", () => {
		const original = "one  \r\ntwo “q”\r\n";
		const view = buildView(original, true);
		expect(view.text).toBe('one\ntwo "q"\n');
		const at = view.text.indexOf('one\ntwo "q"');
		expect(mapToOriginal(view, at, at + 'one\ntwo "q"'.length)).toEqual({ start: 0, end: original.indexOf("”") + 1 });
	});

	it("refuses a match that starts or ends inside one replaced character", () => {
		const view = buildView("xﬁy", true);
		expect(view.text).toBe("xfiy");
		expect(mapToOriginal(view, 2, 4)).toBeUndefined(); // "iy" starts inside "ﬁ"
		expect(mapToOriginal(view, 0, 2)).toBeUndefined(); // "xf" ends inside "ﬁ"
		expect(mapToOriginal(view, 1, 3)).toEqual({ start: 1, end: 2 });
	});

	it("keeps surrogate pairs whole", () => {
		const view = buildView("a 😀 b", true);
		expect(view.text).toBe("a 😀 b");
		expect(mapToOriginal(view, 2, 4)).toEqual({ start: 2, end: 4 });
	});

	it("maps every match back to original text that normalises to the same thing", () => {
		const alphabet = ["a", "b", " ", "\t", "\n", "\r\n", "\r", "“", "”", "–", "\u00A0", "ﬁ", "é", "e\u0301", "😀"];
		for (let seed = 1; seed <= 400; seed++) {
			const next = random(seed);
			const original = Array.from({ length: 5 + next(40) }, () => alphabet[next(alphabet.length)]).join("");
			for (const tolerant of [false, true]) {
				const view = buildView(original, tolerant);
				const level = tolerant ? "tolerant" : "line-endings";
				expect(normalizeForLevel(original, level)).toBe(view.text);
				for (let trial = 0; trial < 10; trial++) {
					const start = next(view.text.length);
					const end = start + 1 + next(view.text.length - start);
					const needle = view.text.slice(start, end);
					if (/^[ \t]|[ \t]$/.test(needle)) continue; // a blank at either edge may trail in the slice
					const range = mapToOriginal(view, start, end);
					if (!range) continue;
					expect(normalizeForLevel(original.slice(range.start, range.end), level), `seed ${seed}`).toBe(needle);
				}
			}
		}
	});
});

describe("findOldText", () => {
	it("tries exact, then line endings, then tolerant, and reports the level", () => {
		const views = new FileViews("say “hi”\r\nbye  \r\n");
		expect(findOldText(views, "say “hi”")).toMatchObject({ kind: "found", level: "exact", start: 0 });
		expect(findOldText(views, "say “hi”\nbye")).toMatchObject({ kind: "found", level: "line-endings" });
		expect(findOldText(views, 'say "hi"\nbye')).toMatchObject({ kind: "found", level: "tolerant", start: 0, end: 13 });
		expect(findOldText(views, "nope")).toEqual({ kind: "missing" });
	});

	it("counts overlapping occurrences as ambiguous", () => {
		expect(findOldText(new FileViews("aaa"), "aa")).toEqual({ kind: "ambiguous", count: 2, level: "exact" });
	});
});
