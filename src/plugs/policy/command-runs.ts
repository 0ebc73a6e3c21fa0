// What a command runs, as a deny rule judges it: through wrappers (`env touch p`, `command touch p`,
// `sudo -u x touch p`), under its name without a folder (`/usr/bin/touch p`), without the assignments before
// it, with variables the line sets before followed (`t=touch; $t p`), and the commands `find -exec` runs.
import { basename } from "node:path";
import { wrapperChain } from "./command-wrappers.js";
import { findExecs } from "./find-command.js";
import type { ShellCommand, ShellWord } from "./shell-line.js";

export interface CommandRuns {
	/** Each spelling of what runs that a deny rule is matched against, the command as written first. */
	runs: string[];
	/** Every command it runs is named by a word written out (no expansion, no glob): the only kind an allow rule with a pattern may allow. */
	named: boolean;
}

const GLOB = /[*?[]/;

export function commandRuns(command: ShellCommand): CommandRuns {
	const texts = new Set([command.text]);
	let named = true;
	const visit = (words: readonly ShellWord[], depth: number) => {
		for (const level of wrapperChain(words)) {
			const [name, ...args] = level;
			if (!name) continue;
			const value = name.literal ?? name.path;
			if (name.literal === undefined || GLOB.test(name.literal)) named = false;
			texts.add(level.map((word) => word.literal ?? word.text).join(" "));
			const run = [basename(value ?? name.text), ...args.map((word) => word.literal ?? word.path ?? word.text)].join(" ");
			texts.add(run);
			if (depth < 4 && value !== undefined && basename(value) === "find") for (const exec of findExecs(level)) visit(exec, depth + 1);
		}
	};
	visit(command.words, 0);
	return { runs: [...texts], named };
}
