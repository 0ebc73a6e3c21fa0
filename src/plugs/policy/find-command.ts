// What a `find` command would delete: its starting points, whether it deletes (-delete, or -exec rm), and whether
// its expression narrows what it matches (by name, path, time, size, …) or could match everything it walks.
import { effectiveWords } from "./command-wrappers.js";
import { commandName, type ShellWord } from "./shell-line.js";

export interface FindRun {
	/** The folders it walks ("." when none is given). */
	starts: readonly ShellWord[];
	/** It deletes what it matches: -delete, or -exec/-execdir/-ok/-okdir running rm. */
	deletes: boolean;
	/** Its tests pick some entries only; false when it could match every entry it walks. */
	narrow: boolean;
}

/** Tests that pick entries by what they are called or hold, each with one argument; a type or a depth alone still picks everything of a kind. */
const NARROWING_TESTS = new Set(
	"-name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname -anewer -cnewer -mtime -mmin -atime -amin -ctime -cmin -size -user -group -uid -gid -perm -links -inum -samefile -used -fstype -context".split(" "),
);
/** Narrowing tests without an argument. */
const NARROWING_FLAGS = new Set(["-empty", "-nouser", "-nogroup", "-readable", "-writable", "-executable", "-false"]);
/** Other primaries with arguments: how many. */
const ARGUMENTS: Readonly<Record<string, number>> = { "-type": 1, "-xtype": 1, "-maxdepth": 1, "-mindepth": 1, "-fprint": 1, "-fprint0": 1, "-fls": 1, "-printf": 1, "-fprintf": 2, "-regextype": 1, "-files0-from": 1 };
const EXECUTORS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
/** Options before the starting points. */
const LEADING_OPTION = /^-([HLP]|O\d*)$/;

const value = (word: ShellWord) => word.literal ?? word.text;

/** A name or path test whose pattern every entry matches (`-name '*'`, `-name '?*'`, `-regex '.*'`). */
function matchesEverything(test: string, pattern: string): boolean {
	if (/^-i?(name|path|wholename)$/.test(test)) return /^(\*+|\**\?\*+|\*+\?\**)$/.test(pattern);
	if (/^-i?regex$/.test(test)) return /^\^?(\.\*|\.\+)+\$?$/.test(pattern);
	return false;
}

/** The commands `find …` runs with -exec, -execdir, -ok or -okdir, each as its words. */
export function findExecs(words: readonly ShellWord[]): ShellWord[][] {
	const found: ShellWord[][] = [];
	for (let at = 1; at < words.length; at++) {
		if (!EXECUTORS.has(value(words[at]))) continue;
		const end = words.findIndex((word, index) => index > at && [";", "+"].includes(value(word)));
		found.push(words.slice(at + 1, end === -1 ? undefined : end));
		at = end === -1 ? words.length : end;
	}
	return found;
}

/** Reads `find …` (its words, the name first, wrappers taken off). */
export function readFind(words: readonly ShellWord[]): FindRun {
	let at = 1;
	while (at < words.length && (LEADING_OPTION.test(value(words[at])) || value(words[at]) === "-D")) at += value(words[at]) === "-D" ? 2 : 1;
	const starts: ShellWord[] = [];
	while (at < words.length && !/^[-(!),]/.test(value(words[at]))) starts.push(words[at++]);
	const reader = new ExpressionReader(words.slice(at));
	const narrow = reader.read();
	return { starts: starts.length > 0 ? starts : [{ text: ".", literal: ".", path: ".", pathStart: "." }], deletes: reader.deletes, narrow };
}

/**
 * find's expression, read for one property: does it narrow what matches? A primary narrows if it is a narrowing
 * test; `A B` (and) narrows if either does; `A -o B` and `A , B` only if both do; `! A` never (it keeps the rest).
 */
class ExpressionReader {
	deletes = false;
	private at = 0;

	constructor(private readonly tokens: readonly ShellWord[]) {}

	/** The whole expression; what follows a stray `)` is read on, as not narrowing. */
	read(): boolean {
		let narrow = this.list();
		while (this.at < this.tokens.length) {
			this.at++;
			this.list();
			narrow = false;
		}
		return narrow;
	}

	private list(): boolean {
		let narrow = this.or();
		while (this.peek() === ",") {
			this.at++;
			narrow = this.or() && narrow;
		}
		return narrow;
	}

	private or(): boolean {
		let narrow = this.and();
		while (this.peek() === "-o" || this.peek() === "-or") {
			this.at++;
			narrow = this.and() && narrow;
		}
		return narrow;
	}

	private and(): boolean {
		let narrow = false;
		for (let token = this.peek(); token !== undefined && ![")", ",", "-o", "-or"].includes(token); token = this.peek()) {
			if (token === "-a" || token === "-and") this.at++;
			else narrow = this.unary() || narrow;
		}
		return narrow;
	}

	private unary(): boolean {
		const token = this.peek()!;
		this.at++;
		if (token === "!" || token === "-not") {
			this.unary();
			return false;
		}
		if (token === "(") {
			const narrow = this.list();
			if (this.peek() === ")") this.at++;
			return narrow;
		}
		if (token === "-delete") this.deletes = true;
		if (EXECUTORS.has(token)) {
			const end = this.tokens.findIndex((word, index) => index >= this.at && [";", "+"].includes(value(word)));
			const command = this.tokens.slice(this.at, end === -1 ? undefined : end);
			if (commandName(effectiveWords(command)) === "rm") this.deletes = true;
			this.at = end === -1 ? this.tokens.length : end + 1;
			return false;
		}
		const narrowing = NARROWING_TESTS.has(token) || /^-newer/.test(token);
		const argument = this.peek();
		this.at += narrowing ? 1 : Object.hasOwn(ARGUMENTS, token) ? ARGUMENTS[token] : 0;
		if (narrowing && argument !== undefined && matchesEverything(token, argument)) return false;
		return narrowing || NARROWING_FLAGS.has(token);
	}

	private peek(): string | undefined {
		const token = this.tokens[this.at];
		return token === undefined ? undefined : value(token);
	}
}
