import { createTwoFilesPatch } from "diff";
import { describe, expect, it } from "vitest";
import { type ChangedRange, describeChange } from "../../src/tools/edit-diff.js";

/** Small deterministic PRNG so a failure can be replayed. */
function random(seed: number) {
	let state = seed >>> 0;
	return (below: number) => {
		state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
		return state % below;
	};
}

/** Applies non-overlapping sorted ranges, returning the new text and the ranges with their new lengths. */
function apply(before: string, edits: { start: number; end: number; text: string }[]) {
	let after = "";
	let cursor = 0;
	const ranges: ChangedRange[] = [];
	for (const edit of edits) {
		after += before.slice(cursor, edit.start) + edit.text;
		cursor = edit.end;
		ranges.push({ oldStart: edit.start, oldEnd: edit.end, newLength: edit.text.length });
	}
	return { after: after + before.slice(cursor), ranges };
}

const wholeFileDiff = (before: string, after: string) => createTwoFilesPatch("f.txt", "f.txt", before, after, undefined, undefined, { context: 3 });

describe("describeChange", () => {
	it("gives the same diff as diffing the whole file, for random edits", () => {
		for (let seed = 1; seed <= 300; seed++) {
			const next = random(seed);
			const lineCount = 1 + next(60);
			const lines = Array.from({ length: lineCount }, (_, i) => `line ${i} ${"x".repeat(next(5))}`);
			const before = lines.join("\n") + (next(2) ? "\n" : "");
			const cuts = new Set<number>();
			const editCount = 1 + next(4);
			for (let i = 0; i < editCount * 2; i++) cuts.add(next(before.length + 1));
			const points = [...cuts].sort((a, b) => a - b);
			const edits: { start: number; end: number; text: string }[] = [];
			for (let i = 0; i + 1 < points.length; i += 2) {
				const start = points[i]!;
				const end = points[i + 1]!;
				const choice = next(4);
				const text = choice === 0 ? "" : choice === 1 ? `new ${seed}\n` : choice === 2 ? `mid${seed}` : `a\nb ${seed}\nc`;
				if (end > start) edits.push({ start, end, text });
			}
			if (edits.length === 0) continue;
			const { after, ranges } = apply(before, edits);
			if (after === before) continue;
			const expected = wholeFileDiff(before, after);
			const { diff } = describeChange("f.txt", before, after, ranges);
			expect(diff, `seed ${seed}`).toBe(expected.replace(/^=+\n/m, "").replace(/^Index: .*\n/m, ""));
		}
	});

	it("finds the first changed line inside an edit that repeats its first lines", () => {
		const before = "a\nb\nc\nd\ne\n";
		const { after, ranges } = apply(before, [{ start: 2, end: 6, text: "b\nC\n" }]);
		expect(describeChange("f.txt", before, after, ranges).firstChangedLine).toBe(3);
	});

	it("diffs a change deep in a large file quickly, with correct line numbers", () => {
		const lines = Array.from({ length: 300_000 }, (_, i) => `line ${i}: some ordinary text`);
		const before = `${lines.join("\n")}\n`;
		const start = before.indexOf("line 150000:");
		const end = before.indexOf("\n", start) + 1;
		const { after, ranges } = apply(before, [{ start, end, text: "changed\n" }]);
		const started = Date.now();
		const { diff, firstChangedLine } = describeChange("f.txt", before, after, ranges);
		expect(Date.now() - started).toBeLessThan(2000);
		expect(firstChangedLine).toBe(150_001);
		expect(diff).toContain("@@ -149998,7 +149998,7 @@");
		expect(diff).toContain("-line 150000: some ordinary text\n+changed\n");
	});
});
