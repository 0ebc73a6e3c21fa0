// The unified diff of an edit, computed only around the replaced ranges: diffing a whole large file line by
// line costs far more than the edit itself, and the lines between distant edits are known to be equal.
import { FILE_HEADERS_ONLY, formatPatch, type StructuredPatchHunk, structuredPatch } from "diff";

export interface ChangedRange {
	/** Replaced range in the text before the edit. */
	oldStart: number;
	oldEnd: number;
	/** Length of the text that replaced it. */
	newLength: number;
}

export interface ChangeDescription {
	diff: string;
	/** 1-indexed line of the new text with the first added or removed line. */
	firstChangedLine: number;
}

const CONTEXT_LINES = 3;
/**
 * Lines taken around each change: the context plus one, since a change ending at a line start can still
 * alter that line (a replacement without a final newline joins it), and extra equal lines are harmless.
 */
const EXCERPT_LINES = CONTEXT_LINES + 1;

/** Offset where the line holding `offset` starts, moved back `extra` more lines. */
function expandBack(text: string, offset: number, extra: number): number {
	let start = offset === 0 ? 0 : text.lastIndexOf("\n", offset - 1) + 1;
	for (let i = 0; i < extra && start > 0; i++) start = text.lastIndexOf("\n", start - 2) + 1;
	return start;
}

/** Offset just past the line holding `offset`, moved forward `extra` more lines. */
function expandForward(text: string, offset: number, extra: number): number {
	let end = offset;
	for (let i = 0; i <= extra && end < text.length; i++) {
		const next = text.indexOf("\n", end);
		end = next === -1 ? text.length : next + 1;
	}
	return end;
}

/** Counts newlines in text[from, to), moving forward only. */
class LineCounter {
	private at = 0;
	private line = 0;
	constructor(private readonly text: string) {}
	/** 0-indexed line of `offset`; offsets must not decrease between calls. */
	lineOf(offset: number): number {
		for (let nl = this.text.indexOf("\n", this.at); nl !== -1 && nl < offset; nl = this.text.indexOf("\n", nl + 1)) {
			this.line++;
			this.at = nl + 1;
		}
		return this.line;
	}
}

interface Excerpt {
	oldFrom: number;
	oldTo: number;
	newFrom: number;
	newTo: number;
}

/**
 * Excerpts are cut from the old text and carried over to the new one by the size change of the edits before
 * them: outside the edits both texts are equal, so the context around a change is the same lines in both.
 * Ranges whose context would touch are diffed together, as a whole-file diff would join their hunks.
 */
function excerpts(before: string, ranges: readonly ChangedRange[]): Excerpt[] {
	const result: Excerpt[] = [];
	let delta = 0;
	for (const range of ranges) {
		const oldFrom = expandBack(before, range.oldStart, EXCERPT_LINES);
		const oldTo = expandForward(before, range.oldEnd, EXCERPT_LINES);
		const deltaBefore = delta;
		delta += range.newLength - (range.oldEnd - range.oldStart);
		const last = result.at(-1);
		if (last && oldFrom <= last.oldTo) {
			last.oldTo = oldTo;
			last.newTo = oldTo + delta;
		} else result.push({ oldFrom, oldTo, newFrom: oldFrom + deltaBefore, newTo: oldTo + delta });
	}
	return result;
}

/** `ranges` sorted by position, not overlapping; the text outside them is the same before and after. */
export function describeChange(fileName: string, before: string, after: string, ranges: readonly ChangedRange[]): ChangeDescription {
	const lf = (text: string) => text.replace(/\r\n/g, "\n");
	const oldLines = new LineCounter(before);
	const newLines = new LineCounter(after);
	const hunks: StructuredPatchHunk[] = [];
	for (const excerpt of excerpts(before, ranges)) {
		const oldOffset = oldLines.lineOf(excerpt.oldFrom);
		const newOffset = newLines.lineOf(excerpt.newFrom);
		const oldText = lf(before.slice(excerpt.oldFrom, excerpt.oldTo));
		const newText = lf(after.slice(excerpt.newFrom, excerpt.newTo));
		// Excerpts end on line ends, so "No newline at end of file" shows only where the file really lacks one.
		const patch = structuredPatch(fileName, fileName, oldText, newText, undefined, undefined, { context: CONTEXT_LINES });
		for (const hunk of patch.hunks) {
			hunks.push({ ...hunk, oldStart: hunk.oldStart + oldOffset, newStart: hunk.newStart + newOffset });
		}
	}

	let firstChangedLine = 1;
	const first = hunks[0];
	if (first) {
		const index = first.lines.findIndex((line) => line.startsWith("+") || line.startsWith("-"));
		firstChangedLine = first.newStart + Math.max(index, 0);
	}
	const diff = formatPatch({ oldFileName: fileName, newFileName: fileName, oldHeader: undefined, newHeader: undefined, hunks }, FILE_HEADERS_ONLY);
	return { diff, firstChangedLine };
}
