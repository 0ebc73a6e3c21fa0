// Commands that run another command (sudo rm …, env X=1 rm …, timeout 5 rm …): guards look at the command run.
import { commandName, type ShellWord } from "./shell-line.js";

interface Wrapper {
	/** Options followed by a separate value (`-u root`). */
	valueOptions: readonly string[];
	/** A positional argument before the command (timeout's duration). */
	leadingArguments?: number;
	/** NAME=value words before the command (env). */
	assignments?: boolean;
	/** Options with which the wrapper runs nothing (`command -v rm` only prints where rm is). */
	runsNothingWith?: readonly string[];
}

const WRAPPERS: Readonly<Record<string, Wrapper>> = {
	sudo: { valueOptions: ["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T"], runsNothingWith: ["-l", "-v", "-k", "-K", "-V"] },
	doas: { valueOptions: ["-u", "-C"] },
	env: { valueOptions: ["-u", "-C", "-S"], assignments: true },
	nice: { valueOptions: ["-n"] },
	ionice: { valueOptions: ["-c", "-n", "-p", "-P", "-u"] },
	nohup: { valueOptions: [] },
	time: { valueOptions: ["-f", "-o"] },
	timeout: { valueOptions: ["-s", "-k", "--signal", "--kill-after"], leadingArguments: 1 },
	stdbuf: { valueOptions: ["-i", "-o", "-e"] },
	command: { valueOptions: [], runsNothingWith: ["-v", "-V"] },
	builtin: { valueOptions: [] },
	exec: { valueOptions: ["-a"] },
	xargs: { valueOptions: ["-I", "-n", "-P", "-L", "-s", "-d", "-E", "-a"] },
	busybox: { valueOptions: [] },
};

/** The words of the command a wrapper chain runs (`sudo -u x env A=1 rm -rf /` → `rm -rf /`); [] when it runs none. */
export function effectiveWords(words: readonly ShellWord[]): readonly ShellWord[] {
	let rest = words;
	for (let depth = 0; depth < 8; depth++) {
		const name = commandName(rest);
		const wrapper = name !== undefined && Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
		if (!wrapper) return rest;
		const after = afterWrapper(rest, wrapper);
		if (after === undefined) return [];
		rest = after;
	}
	return rest;
}

function afterWrapper(words: readonly ShellWord[], wrapper: Wrapper): readonly ShellWord[] | undefined {
	let at = 1;
	let positional = wrapper.leadingArguments ?? 0;
	while (at < words.length) {
		const word = words[at].literal ?? words[at].text;
		if (word === "--") return words.slice(at + 1);
		if (word.startsWith("-") && word !== "-") {
			if (wrapper.runsNothingWith?.includes(word)) return undefined;
			at += wrapper.valueOptions.includes(word) ? 2 : 1;
			continue;
		}
		if (wrapper.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
			at++;
			continue;
		}
		if (positional > 0) {
			positional--;
			at++;
			continue;
		}
		break;
	}
	return words.slice(at);
}
