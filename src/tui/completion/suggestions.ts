// What the editor offers to complete, from the text and the cursor: the commands when the text starts with "/",
// the project's files after "@", and (on Tab) the path under the cursor. Each answer names the part of the text
// it replaces. The commands and the file matches are at hand at once; Tab may read a directory.
import { readdir } from "node:fs/promises";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { mentionWord, pathWordAt, shellWord, stripToOneLine } from "../../core/index.js";
import { fuzzyFilter } from "./fuzzy-match.js";
import type { FileMatcher } from "./file-matcher.js";

export interface Suggestion {
	/** The row in the list. */
	label: string;
	/** Dimmed after the label (a command's description). */
	description?: string;
	/** Replaces text[from, to) when chosen. */
	insert: string;
	/** Choosing it with Enter also sends the text (a command that takes no arguments). */
	submit?: boolean;
}

export interface SuggestionList {
	kind: "command" | "file" | "path";
	items: Suggestion[];
	from: number;
	to: number;
	/** More may come (files still being indexed or matched). */
	pending?: boolean;
	/** The text the list completes (a command's name as typed): Enter on an item equal to it sends instead. */
	typed: string;
}

export interface CommandInfo {
	name: string;
	description: string;
	argsHint?: string;
}

/** Where the whitespace-free token around `cursor` starts and ends. */
export function tokenAround(text: string, cursor: number): { start: number; end: number } {
	let start = cursor;
	while (start > 0 && !/\s/.test(text[start - 1])) start--;
	let end = cursor;
	while (end < text.length && !/\s/.test(text[end])) end++;
	return { start, end };
}

/** A command name being typed: the letters, digits, dashes and one colon a name may hold ("/skill:re"). */
const TYPING_NAME = /^\/[a-z0-9-]*(?::[a-z0-9-]*)?$/;

/** "/mo" at the very start of the text, the cursor in it: the commands whose names match, best first. */
export function commandSuggestions(text: string, cursor: number, commands: readonly CommandInfo[]): SuggestionList | undefined {
	const before = text.slice(0, cursor);
	if (!TYPING_NAME.test(before)) return undefined;
	const { end } = tokenAround(text, cursor);
	const typed = text.slice(1, end);
	if (!TYPING_NAME.test(`/${typed}`)) return undefined;
	const matching = fuzzyFilter(commands, before.slice(1), (command) => command.name);
	if (matching.length === 0) return undefined;
	const items = matching.map((command) => ({
		label: `/${command.name}${command.argsHint ? ` ${command.argsHint}` : ""}`,
		description: stripToOneLine(command.description),
		insert: `/${command.name} `,
		submit: !command.argsHint,
	}));
	return { kind: "command", items, from: 0, to: end, typed: `/${typed} ` };
}

/** `path` written after "@" as completion inserts it: a folder left open to go on in, a file followed by a blank. */
function mentionInsert(path: string): string {
	return path.endsWith("/") ? mentionWord(path, true) : `${mentionWord(path)} `;
}

/** "@src/ed" before the cursor: the project's files matching "src/ed", best first. */
export function fileSuggestions(text: string, cursor: number, files: FileMatcher): SuggestionList | undefined {
	const word = pathWordAt(text, cursor);
	if (word.lead !== "@") return undefined;
	const found = files.matches(word.typed);
	const items = found.paths.map((path) => ({ label: path, insert: mentionInsert(path) }));
	return { kind: "file", items, from: word.start, to: word.end, pending: found.pending, typed: text.slice(word.start, word.end) };
}

function commonPrefix(names: readonly string[]): string {
	if (names.length === 0) return "";
	let prefix = names[0];
	for (const name of names) while (!name.startsWith(prefix)) prefix = prefix.slice(0, -1);
	return prefix;
}

/**
 * Tab on a path: the entries of its directory that start with what is typed after the last "/", as a shell
 * completes. Relative paths are taken from `cwd`; "~/" is the home directory. Undefined when nothing fits.
 */
export async function pathSuggestions(text: string, cursor: number, cwd: string, home = homedir()): Promise<SuggestionList | undefined> {
	const { start, end, lead, typed } = pathWordAt(text, cursor);
	const slash = typed.lastIndexOf("/");
	const dirPart = slash === -1 ? "" : typed.slice(0, slash + 1);
	const namePart = typed.slice(slash + 1);
	const expanded = dirPart.startsWith("~/") ? home + dirPart.slice(1) : dirPart;
	const dir = resolve(cwd, expanded === "" ? "." : expanded);
	let entries: import("node:fs").Dirent[];
	try {
		entries = await readdir(dir, { withFileTypes: true });
	} catch {
		return undefined;
	}
	const names = entries
		.filter((entry) => entry.name.startsWith(namePart) && (namePart.startsWith(".") || !entry.name.startsWith(".")))
		.map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
		.sort();
	if (names.length === 0) return undefined;
	// Written back as a shell would: escaped, or quoted after "@"; only a file's word is closed with a blank.
	const written = (path: string, done: boolean) => (lead === "@" ? (done ? mentionInsert(path) : mentionWord(path, true)) : `${shellWord(path)}${done && !path.endsWith("/") ? " " : ""}`);
	const item = (name: string): Suggestion => ({ label: dirPart + name, insert: written(dirPart + name, true) });
	const list = (items: Suggestion[]): SuggestionList => ({ kind: "path", items, from: start, to: end, typed: text.slice(start, end) });
	if (names.length === 1) return list([item(names[0])]);
	// Several: first the part they all share (as a shell does), then the list to choose from.
	const common = commonPrefix(names);
	if (common.length > namePart.length) return list([{ label: dirPart + common, insert: written(dirPart + common, false) }]);
	return list(names.slice(0, 200).map(item));
}

/** The text and cursor after choosing `suggestion` from `list`. */
export function applySuggestion(text: string, list: SuggestionList, suggestion: Suggestion): { text: string; cursor: number } {
	let rest = text.slice(list.to);
	// One space between the completion and what follows it.
	if (suggestion.insert.endsWith(" ") && rest.startsWith(" ")) rest = rest.slice(1);
	return { text: text.slice(0, list.from) + suggestion.insert + rest, cursor: list.from + suggestion.insert.length };
}
