// Where `mktemp` creates its file or folder, so `tmp=$(mktemp -d); …; rm -rf "$tmp"` names a path the guards
// can judge: always a new entry, which holds nothing that was there before.
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ShellWord } from "./shell-line.js";

/** GNU's and BSD's default template. */
const DEFAULT_TEMPLATE = "tmp.XXXXXXXXXX";
const FLAGS = new Set(["-d", "-q", "-u", "--directory", "--quiet", "--dry-run"]);

/**
 * The path `mktemp …` (its words, the name first) creates, its X's left as written; undefined for options it
 * does not know or a folder known only when it runs. A template without a folder is made in the temporary
 * folder ($TMPDIR) when none is given or with -t, else in the working folder, as mktemp does.
 */
export function mktempPath(words: readonly ShellWord[]): string | undefined {
	let folder: string | undefined;
	let relativeToTmp = false;
	let template: string | undefined;
	for (let at = 1; at < words.length; at++) {
		const word = words[at];
		const text = word.literal;
		if (text === undefined) return undefined;
		if (FLAGS.has(text)) continue;
		if (text === "-t") relativeToTmp = true;
		else if (text === "-p" || text.startsWith("--tmpdir=")) {
			folder = text === "-p" ? words[++at]?.path : text.slice("--tmpdir=".length);
			if (folder === undefined) return undefined;
		} else if (text === "--tmpdir") relativeToTmp = true;
		else if (text.startsWith("-") || template !== undefined) return undefined;
		else template = word.path ?? text;
	}
	if (template?.includes("/")) return template;
	if (folder !== undefined) return join(folder, template ?? DEFAULT_TEMPLATE);
	return template === undefined || relativeToTmp ? join(tmpdir(), template ?? DEFAULT_TEMPLATE) : template;
}
