// Applies a batch of edits to a file's text: all matched against the original, all or nothing.
import { formatClosestLines, findClosestLines } from "./edit-hint.js";
import { FileViews, findOldText, type MatchLevel } from "./edit-match.js";

export interface EditSpec {
	oldText: string;
	newText: string;
}

export interface AppliedEdit {
	/** Index in the edits array as the model sent it. */
	index: number;
	/** Range of the original text that was replaced. */
	start: number;
	end: number;
	/** Length of the replacement as written (line endings converted). */
	newLength: number;
	level: MatchLevel;
}

export interface EditOutcome {
	content: string;
	applied: AppliedEdit[];
}

/** CRLF when most line endings are CRLF; the file's own style is what new text gets. */
function detectLineEnding(text: string): "\r\n" | "\n" {
	let lf = 0;
	let crlf = 0;
	for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) {
		if (at > 0 && text[at - 1] === "\r") crlf++;
		else lf++;
	}
	return crlf > 0 && crlf >= lf ? "\r\n" : "\n";
}

function withLineEnding(text: string, eol: "\r\n" | "\n"): string {
	const lf = text.replace(/\r\n/g, "\n");
	return eol === "\n" ? lf : lf.replace(/\n/g, "\r\n");
}

function describeMissing(original: string, oldText: string, index: number, shownPath: string): string {
	const closest = findClosestLines(original, oldText);
	const hint = closest
		? `${formatClosestLines(closest)}\nCopy oldText from these lines exactly (read the file again if unsure).`
		: "No similar lines were found; read the file again and copy oldText exactly, including whitespace and indentation.";
	return `edits[${index}].oldText was not found in ${shownPath}.\n${hint}`;
}

/**
 * Computes the edited text, or throws one error that lists every edit that cannot be applied and what to do.
 * `original` is the file's text without a BOM.
 */
export function applyEdits(original: string, edits: readonly EditSpec[], shownPath: string): EditOutcome {
	if (edits.length === 0) throw new Error("No edits given. Pass edits: [{ oldText, newText }, ...] with at least one entry.");
	const views = new FileViews(original);
	const problems: string[] = [];
	const applied: AppliedEdit[] = [];

	edits.forEach((edit, index) => {
		if (edit.oldText.length === 0) {
			problems.push(
				`edits[${index}].oldText is empty. oldText must be existing text of the file, unique within it; to create or replace a whole file use write.`,
			);
			return;
		}
		const found = findOldText(views, edit.oldText);
		if (found.kind === "missing") problems.push(describeMissing(original, edit.oldText, index, shownPath));
		else if (found.kind === "ambiguous") {
			problems.push(
				`edits[${index}].oldText matches ${found.count} places in ${shownPath}; it must match exactly once. Add surrounding lines to oldText so it is unique.`,
			);
		} else applied.push({ index, start: found.start, end: found.end, newLength: 0, level: found.level });
	});

	const sorted = [...applied].sort((a, b) => a.start - b.start);
	for (let i = 1; i < sorted.length; i++) {
		const before = sorted[i - 1]!;
		const after = sorted[i]!;
		if (after.start < before.end) {
			problems.push(
				`edits[${before.index}] and edits[${after.index}] overlap in ${shownPath}. Edits are all matched against the original file; merge these two into one edit.`,
			);
		}
	}
	if (problems.length > 0) {
		const intro = edits.length > 1 ? `No edits were applied to ${shownPath} (they apply all or nothing):\n` : "";
		throw new Error(intro + problems.join("\n\n"));
	}

	const eol = detectLineEnding(original);
	let content = "";
	let cursor = 0;
	for (const edit of sorted) {
		const replacement = withLineEnding(edits[edit.index]!.newText, eol);
		edit.newLength = replacement.length;
		content += original.slice(cursor, edit.start) + replacement;
		cursor = edit.end;
	}
	content += original.slice(cursor);

	if (content === original) {
		throw new Error(
			`These edits would leave ${shownPath} unchanged: each newText equals the text it replaces. Nothing was written. If the file already reads as intended, no edit is needed.`,
		);
	}
	return { content, applied: sorted };
}
