// The code a shell started by a command line runs: `bash -lc '…'`, `sh -o errexit -c '…'`, `fish --command=…`.
import { commandName, NON_POSIX_SHELLS, SHELLS, type ShellWord } from "./shell-line.js";

export interface ShellCode {
	/** Each word that is, or may be, the code run; undefined where the word is known only when the line runs. */
	code: (string | undefined)[];
	/** The code run is exactly `code`: every option was understood, and the shell reads POSIX sh. */
	sure: boolean;
}

/** Long options of bash that take no value; any other long option is not understood. */
const LONG_OPTIONS = new Set([
	"--norc",
	"--noprofile",
	"--login",
	"--posix",
	"--noediting",
	"--restricted",
	"--verbose",
	"--debugger",
	"--dump-strings",
	"--dump-po-strings",
	"--protected",
	"--wordexp",
	"--version",
	"--help",
]);
/** Long options of bash followed by a separate value. */
const LONG_VALUE_OPTIONS = new Set(["--rcfile", "--init-file"]);
/** A cluster of a POSIX shell's short options holding -c. */
const CODE_OPTION = /^-[a-zA-Z]*c[a-zA-Z]*$/;
/** A cluster of fish's, csh's or tcsh's short options holding -c (fish's -C runs code too), and what is attached after it. */
const OTHER_CODE_OPTION = /^-[a-zA-Z]*?[cC](.*)$/s;
/** Options of fish that are followed by code (`--command=…` too). */
const FISH_CODE_OPTIONS = new Set(["--command", "--init-command"]);

/** The code `words` (a command's words, wrappers taken off) runs as a shell: none when it runs a script or reads standard input; undefined when it is no shell. */
export function shellCode(words: readonly ShellWord[]): ShellCode | undefined {
	const name = commandName(words);
	if (name === undefined || !SHELLS.has(name)) return undefined;
	if (NON_POSIX_SHELLS.has(name)) return possibleCode(words, true);
	return posixCode(words) ?? possibleCode(words, false);
}

/**
 * As a POSIX shell reads its arguments: options first (`-o name` and `-O name` take the next word), and with -c
 * among them the code is the first word after them, wherever the -c stood. Undefined when an option is not
 * understood (a long option bash does not have, a word known only when the line runs).
 */
function posixCode(words: readonly ShellWord[]): ShellCode | undefined {
	let runsCode = false;
	let at = 1;
	for (; at < words.length; at++) {
		const word = words[at].literal;
		// Known only when the line runs: the code after a -c, else a script's path, unless it may be options before a -c.
		if (word === undefined) {
			if (!runsCode && words.slice(at + 1).some(({ literal }) => literal !== undefined && CODE_OPTION.test(literal))) return undefined;
			break;
		}
		if (word === "--" || word === "-") {
			at++;
			break;
		}
		if (LONG_VALUE_OPTIONS.has(word)) {
			at++;
			continue;
		}
		if (word.startsWith("--")) {
			if (LONG_OPTIONS.has(word)) continue;
			return undefined;
		}
		const cluster = /^([-+])([a-zA-Z]+)$/.exec(word);
		if (!cluster) break;
		if (CODE_OPTION.test(word)) runsCode = true;
		at += cluster[2].replace(/[^oO]/g, "").length;
	}
	if (!runsCode) return { code: [], sure: true };
	return { code: at < words.length ? [words[at].literal] : [], sure: true };
}

/**
 * When where the code is cannot be told for sure: every word after the first that may start it (a -c option, or
 * a word known only when the line runs) that does not look like an option, and code attached to an option
 * (fish's `--command=…`, `-c…`).
 */
function possibleCode(words: readonly ShellWord[], nonPosix: boolean): ShellCode | undefined {
	const code: (string | undefined)[] = [];
	let started = false;
	let codeOption = false;
	for (const { literal } of words.slice(1)) {
		if (literal === undefined) {
			if (started) code.push(undefined);
			started = true;
			continue;
		}
		const [option, value] = splitAt(literal, "=");
		const short = (nonPosix ? OTHER_CODE_OPTION : CODE_OPTION).exec(literal);
		if ((nonPosix && FISH_CODE_OPTIONS.has(option)) || short) {
			const attached = option.startsWith("--") ? value : short?.[1];
			if (attached) code.push(attached);
			started = codeOption = true;
		} else if (started && !literal.startsWith("-")) {
			code.push(literal);
		}
	}
	return codeOption || code.length > 0 ? { code, sure: false } : undefined;
}

function splitAt(text: string, separator: string): [string, string | undefined] {
	const at = text.indexOf(separator);
	return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
