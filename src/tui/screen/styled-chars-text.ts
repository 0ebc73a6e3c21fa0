// Ink's last step of every frame row: its styled characters (ink/build/output.js, one per cell) joined into text
// with the escape codes between them. @alcalzone/ansi-tokenize's version works out the codes from one cell to the
// next for every pair of cells, building sets and arrays each time, though nearly every cell has the style of
// the one before; that was most of the cost of a styled row (the footer's, a highlighted line), and kept V8
// compiling those functions again through a stream. Here a cell whose codes are the very ones of the cell before
// adds no codes, which is what the diff gives for it; every other step is the library's own. The bundle puts
// this in place of the library's function where Ink imports it (rolldown.config.mjs, ink-with-caches).

/** What of @alcalzone/ansi-tokenize this needs (the code objects are opaque here). */
export interface AnsiTokenizeFunctions<Code> {
	diffAnsiCodes(from: Code[], to: Code[]): Code[];
	undoAnsiCodes(codes: Code[]): Code[];
	ansiCodesToString(codes: Code[]): string;
}

/** The same codes, in the same order: from one to the other the diff is empty (nothing to undo, nothing new). */
function sameCodes<Code>(a: readonly Code[], b: readonly Code[]): boolean {
	if (a === b) return true;
	if (a.length !== b.length) return false;
	for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
	return true;
}

/**
 * styledCharsToString as the library defines it, without the diffs between cells of the same codes. A diff
 * from no codes is the codes (as for the first cell), and a diff to none is their undoing: those are taken
 * directly, so the diff only ever sees two styled cells (an unstyled cell's empty array made V8 drop its
 * optimised code for the diff and compile it again).
 */
export function styledCharsText<Code>({ diffAnsiCodes, undoAnsiCodes, ansiCodesToString }: AnsiTokenizeFunctions<Code>) {
	const codesBetween = (from: Code[], to: Code[]): string => {
		if (from.length === 0) return ansiCodesToString(to);
		if (to.length === 0) return ansiCodesToString(undoAnsiCodes(from));
		return ansiCodesToString(diffAnsiCodes(from, to));
	};
	return (chars: readonly { value: string; styles: Code[] }[]): string => {
		let text = "";
		const last = chars.length - 1;
		for (let i = 0; i <= last; i++) {
			const char = chars[i];
			if (i === 0) text += ansiCodesToString(char.styles);
			else if (!sameCodes(chars[i - 1].styles, char.styles)) text += codesBetween(chars[i - 1].styles, char.styles);
			text += char.value;
			if (i === last && char.styles.length > 0) text += ansiCodesToString(undoAnsiCodes(char.styles));
		}
		return text;
	};
}
