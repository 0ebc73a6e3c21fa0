// Paths in the editor's text written as a shell writes them: a blank or a special character escaped with a
// backslash (`dir\ with\ space/`), or, after `@`, the whole path in double quotes (`@"dir with space/a b.txt"`).
// Completion writes them so, and reads them back to complete further; a prompt's @-mentions are read the same
// way. Prose around them is not shell syntax (an apostrophe opens nothing), so only the word at hand is read. Pure.

/** An `@path` in the text: where it stands and the path it names. */
export interface Mention {
	start: number;
	end: number;
	path: string;
}

/** The word the cursor is in, as completion reads it. */
export interface PathWord {
	start: number;
	/** Where the word ends (it may go on after the cursor). */
	end: number;
	/** `@` for a file mention, else "". */
	lead: "@" | "";
	/** The path written before the cursor, quotes and escapes taken off. */
	typed: string;
}

/** Characters a shell would read as something else than part of the path. */
const SPECIAL = /[\s'"\\$`!&|;<>()*?[\]{}#]/;
const BLANK = /\s/;

/** `path` as one shell word: special characters escaped with a backslash (a leading `~/` kept, it means home). */
export function shellWord(path: string): string {
	const home = path.startsWith("~/") ? "~/" : "";
	let out = home;
	for (const char of path.slice(home.length)) out += SPECIAL.test(char) ? `\\${char}` : char;
	return out;
}

/** `@path`, or `@"path"` when the path holds a special character; `open` leaves the quote open (a folder to go on in). */
export function mentionWord(path: string, open = false): string {
	if (!SPECIAL.test(path)) return `@${path}`;
	return `@"${path.replace(/["\\]/g, "\\$&")}${open ? "" : '"'}`;
}

/** Reads a mention's path from `at` (just after the `@`): quoted, or up to the next blank with escapes. */
function readPath(text: string, at: number, stop: number): { path: string; end: number } {
	const quote = text[at];
	let path = "";
	if (quote === '"' || quote === "'") {
		let i = at + 1;
		while (i < stop && text[i] !== quote) {
			// Inside double quotes a backslash escapes the quote and itself, as in a shell.
			if (quote === '"' && text[i] === "\\" && i + 1 < stop && /["\\]/.test(text[i + 1])) i++;
			path += text[i];
			i++;
		}
		return { path, end: Math.min(stop, i + 1) };
	}
	let i = at;
	while (i < stop && !BLANK.test(text[i])) {
		if (text[i] === "\\" && i + 1 < stop) i++;
		path += text[i];
		i++;
	}
	return { path, end: i };
}

/** Every `@path` in `text` that starts it or follows a blank (an e-mail address is no mention). */
export function mentions(text: string): Mention[] {
	const found: Mention[] = [];
	for (let i = 0; i < text.length; i++) {
		if (text[i] !== "@" || (i > 0 && !BLANK.test(text[i - 1]))) continue;
		const { path, end } = readPath(text, i + 1, text.length);
		if (path !== "") found.push({ start: i, end, path });
		i = Math.max(i, end - 1);
	}
	return found;
}

/**
 * The word the cursor is in, for completing a path: an `@"…"` mention still open or ending at the cursor, or the
 * run of characters before the cursor that no unescaped blank ends.
 */
export function pathWordAt(text: string, cursor: number): PathWord {
	for (const mention of mentions(text.slice(0, cursor))) {
		if (mention.end === cursor && text[mention.start + 1] === '"') {
			const end = readPath(text, mention.start + 1, text.length).end;
			return { start: mention.start, end: Math.max(end, cursor), lead: "@", typed: mention.path };
		}
	}
	let start = cursor;
	while (start > 0 && !(BLANK.test(text[start - 1]) && !escaped(text, start - 1))) start--;
	let end = cursor;
	while (end < text.length && !(BLANK.test(text[end]) && !escaped(text, end))) end++;
	const lead = text[start] === "@" ? "@" : "";
	const typed = readPath(text, start + lead.length, cursor).path;
	return { start, end, lead, typed };
}

/** Whether the character at `index` has an odd run of backslashes before it. */
function escaped(text: string, index: number): boolean {
	let count = 0;
	for (let i = index - 1; i >= 0 && text[i] === "\\"; i--) count++;
	return count % 2 === 1;
}
