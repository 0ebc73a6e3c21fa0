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
	/** Options whose value is split into words that come before the command's (`env -S 'rm -rf .'`). */
	splitOptions?: readonly string[];
}

const WRAPPERS: Readonly<Record<string, Wrapper>> = {
	sudo: { valueOptions: ["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T"], runsNothingWith: ["-l", "-v", "-k", "-K", "-V"] },
	doas: { valueOptions: ["-u", "-C"] },
	env: { valueOptions: ["-u", "-C", "--unset", "--chdir"], assignments: true, splitOptions: ["-S", "--split-string"] },
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
	setsid: { valueOptions: [] },
	chroot: { valueOptions: ["--userspec", "--groups"], leadingArguments: 1 },
	flock: { valueOptions: ["-w", "--timeout", "-E", "--conflict-exit-code"], leadingArguments: 1 },
	taskset: { valueOptions: [], leadingArguments: 1 },
	chrt: { valueOptions: [], leadingArguments: 1 },
	unshare: { valueOptions: [] },
	caffeinate: { valueOptions: ["-t", "-w"] },
	unbuffer: { valueOptions: [] },
	strace: { valueOptions: ["-o", "-e", "-p", "-s", "-u", "-a", "-b", "-E", "-I", "-O", "-P", "-S", "-X", "-U"] },
	ltrace: { valueOptions: ["-o", "-e", "-p", "-s", "-u", "-a", "-n", "-A", "-D", "-F", "-l", "-L", "-x"] },
	numactl: { valueOptions: ["-C", "-N", "-m", "-p", "-i", "-P"] },
	nsenter: { valueOptions: ["-t", "-S", "-G", "--target", "--setuid", "--setgid"] },
	firejail: { valueOptions: [] },
	runuser: { valueOptions: ["-u", "-g", "-G", "--user", "--group"] },
	pkexec: { valueOptions: ["--user"] },
	// `coproc cmd …` (a simple command; its compound forms are lines the parser cannot read).
	coproc: { valueOptions: [] },
};

/** The words of the command a wrapper chain runs (`sudo -u x env A=1 rm -rf /` → `rm -rf /`); [] when it runs none. */
export function effectiveWords(words: readonly ShellWord[]): readonly ShellWord[] {
	return wrapperChain(words).at(-1) ?? [];
}

/**
 * Each command of a wrapper chain, the outermost first: `sudo env A=1 rm -rf /` → `sudo env A=1 rm -rf /`,
 * `env A=1 rm -rf /`, `rm -rf /`; the last is [] when the chain runs nothing (`command -v rm`).
 */
export function wrapperChain(words: readonly ShellWord[]): (readonly ShellWord[])[] {
	const chain = [words];
	let rest = words;
	for (let depth = 0; depth < 8; depth++) {
		const name = commandName(rest);
		const wrapper = name !== undefined && Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
		if (!wrapper) return chain;
		const after = afterWrapper(rest, wrapper);
		rest = after ?? [];
		chain.push(rest);
		if (after === undefined) return chain;
	}
	return chain;
}

function afterWrapper(words: readonly ShellWord[], wrapper: Wrapper): readonly ShellWord[] | undefined {
	let at = 1;
	let positional = wrapper.leadingArguments ?? 0;
	while (at < words.length) {
		const word = words[at].literal ?? words[at].text;
		if (word === "--") return words.slice(at + 1);
		const split = splitOption(word, wrapper);
		if (split !== undefined) {
			const attached = split.attached;
			const value = attached !== "" ? { ...words[at], literal: attached, path: attached } : words[at + 1];
			return [...splitString(value), ...words.slice(attached !== "" ? at + 1 : at + 2)];
		}
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

/**
 * A split option in `word` and the value attached to it: `-S'…'`, `--split-string=…`, or ending a cluster of
 * options that take no value (`-vS`, `-iS'…'`).
 */
function splitOption(word: string, wrapper: Wrapper): { attached: string } | undefined {
	for (const option of wrapper.splitOptions ?? []) {
		if (option.startsWith("--")) {
			if (word === option || word.startsWith(`${option}=`)) return { attached: word.slice(option.length + 1) };
			continue;
		}
		const at = word.startsWith("--") ? -1 : word.indexOf(option[1]);
		const before = at > 0 ? /^-([A-Za-z0-9]*)$/.exec(word.slice(0, at)) : null;
		if (before && [...before[1]].every((flag) => !wrapper.valueOptions.includes(`-${flag}`))) return { attached: word.slice(at + 1) };
	}
	return undefined;
}

/**
 * The words `env -S` splits its value into: on blanks, with quotes and backslashes as env reads them; one word
 * known only when it runs for what it would expand (`${VAR}`) or when the value itself is not known.
 */
function splitString(value: ShellWord | undefined): ShellWord[] {
	const text = value?.path;
	if (text === undefined) return [{ text: value?.text ?? "", pathStart: "" }];
	const words: ShellWord[] = [];
	let current: string | undefined;
	let known = true;
	let quote: string | undefined;
	const end = () => {
		if (current !== undefined) words.push(known ? { text: current, literal: current, path: current, pathStart: current } : { text: current, pathStart: "" });
		current = undefined;
		known = true;
	};
	for (let at = 0; at < text.length; at++) {
		const char = text[at];
		if (quote === undefined && /\s/.test(char)) {
			end();
			continue;
		}
		current ??= "";
		if (char === quote) quote = undefined;
		else if (quote === undefined && (char === "'" || char === '"')) quote = char;
		else if (char === "\\" && quote !== "'") current += text[++at] === "_" ? " " : (text[at] ?? "");
		else {
			if (char === "$" && quote !== "'") known = false;
			current += char;
		}
	}
	end();
	return words;
}
