// Guards on shell lines: plainly catastrophic commands, each with what to do instead. They read the parsed
// line (every command, nested ones included, wrappers like sudo looked through), never the raw text.
import { resolve, sep } from "node:path";
import type { PolicyContext } from "./call-facts.js";
import { effectiveWords, wrapperChain } from "./command-wrappers.js";
import { readFind } from "./find-command.js";
import { commandName, SHELLS, type ShellCommand, type ShellLine, type ShellWord } from "./shell-line.js";

/** A guard's finding: the command it blocks and why, with what the model can do instead. */
export type ShellGuard = (line: ShellLine, ctx: PolicyContext) => string | undefined;

const DOWNLOADERS = new Set(["curl", "wget", "fetch"]);
const FILESYSTEM_MAKERS = /^(mkfs(\..+)?|mke2fs|mkswap|wipefs|mkdosfs|mkntfs)$/;
const RAW_DISK =
	/^\/dev\/(sd[a-z]+\d*|hd[a-z]+\d*|vd[a-z]+\d*|xvd[a-z]+\d*|nvme\d+n\d+(p\d+)?|mmcblk\d+(p\d+)?|r?disk\d+(s\d+)?|dm-\d+|md\d+|mapper\/.+|disk\/by-.+)$/;

interface Run {
	command: ShellCommand;
	/** The words of the command run, wrappers (sudo, env, …) taken off. */
	words: readonly ShellWord[];
	name: string | undefined;
}

/** Each line's runs, worked out once for all the guards that read it. */
const lineRuns = new WeakMap<ShellLine, Run[]>();

function runs(line: ShellLine): Run[] {
	let found = lineRuns.get(line);
	if (!found) {
		found = line.commands.map((command) => {
			const words = effectiveWords(command.words);
			return { command, words, name: commandName(words) };
		});
		lineRuns.set(line, found);
	}
	return found;
}

function value(word: ShellWord): string {
	return word.literal ?? word.text;
}

/** Options (before `--`) and operands of a command's arguments. */
function splitArguments(words: readonly ShellWord[]): { options: string[]; operands: ShellWord[] } {
	const options: string[] = [];
	const operands: ShellWord[] = [];
	let ended = false;
	for (const word of words.slice(1)) {
		const text = value(word);
		if (!ended && text === "--") ended = true;
		else if (!ended && text.startsWith("-") && text.length > 1) options.push(text);
		else operands.push(word);
	}
	return { options, operands };
}

function hasOption(options: readonly string[], short: RegExp, long: string): boolean {
	return options.some((option) => option === long || (!option.startsWith("--") && short.test(option.slice(1))));
}

/**
 * What a path would wipe out if it is one of the places never to delete: the root, the home folder or a folder
 * holding it, the working tree or a folder holding it. `dir/*` counts as `dir`.
 */
function preciousTarget(path: string, ctx: PolicyContext, protectWorkTree: boolean): string | undefined {
	while (path.length > 1 && /(\/\.?\*|\/\.)$|\/$/.test(path)) path = path.replace(/(\/\.?\*|\/\.)$|\/$/, "") || "/";
	if (path === "*" || path === ".*") path = ".";
	const absolute = resolve(ctx.cwd, path);
	const holds = (folder: string) => folder === absolute || folder.startsWith(absolute === sep ? sep : absolute + sep);
	if (absolute === sep) return "the root folder /";
	if (holds(ctx.home)) return absolute === ctx.home ? `the home folder ${ctx.home}` : `${absolute}, which holds the home folder`;
	const workTree = [ctx.workTree, ctx.realWorkTree].find(holds);
	if (protectWorkTree && workTree) {
		const what = ctx.repoRoot ? "the repository" : "the working folder";
		return absolute === workTree ? `${what} itself (${absolute})` : `${absolute}, which holds ${what}`;
	}
	return undefined;
}

/**
 * Why deleting under `word` is refused: it names a precious place; it starts with an expansion known only when the
 * line runs ($DIR, $(pwd), ${x:-/}), which may be anything; or it would name a precious place were its expansion
 * empty (~/$NAME). The model can always write the path out instead.
 */
type DeleteDanger = { target: string; unknown?: undefined; ifEmpty?: boolean } | { unknown: true };

function deleteDanger(word: ShellWord, ctx: PolicyContext): DeleteDanger | undefined {
	// An empty word deletes nothing (unquoted, it is no argument at all).
	if (word.path === "") return undefined;
	if (word.path === undefined && word.pathStart === "") return { unknown: true };
	const target = preciousTarget(word.path ?? word.pathStart, ctx, true);
	return target === undefined ? undefined : { target, ifEmpty: word.path === undefined };
}

/** The reason given for a refused delete: `what` ran, `verb` says what it does to the word's path. */
function deleteReason(what: string, verb: string, word: ShellWord, danger: DeleteDanger, example: string): string {
	if (danger.unknown) {
		return `\`${what}\` would ${verb} a path known only when it runs (${word.text}). Write the path out (for example ${example}), so that what it deletes can be checked.`;
	}
	if (danger.ifEmpty) {
		return `\`${what}\` would ${verb} ${danger.target} if the expansion in ${word.text} is empty. Write the path out (for example ${example}), so that what it deletes can be checked.`;
	}
	return `\`${what}\` would ${verb} ${danger.target}. Delete only the files or folders you mean, by their paths inside the project (for example ${example}).`;
}

/**
 * The paths `xargs rm …` (in `command`) gets from its input: the words an `echo` or `printf` before it in the pipe
 * prints; undefined when they are known only when it runs (any other input); [] for a `find`'s, which the
 * guard judges as the find's own.
 */
function xargsInput(line: ShellLine, command: ShellCommand, all: readonly Run[]): ShellWord[] | undefined {
	const pipeline = line.pipelines.find((stages) => stages.includes(command));
	const before = pipeline?.[pipeline.indexOf(command) - 1];
	const source = before && all.find((run) => run.command === before);
	if (!source) return undefined;
	if (source.name === "find") return [];
	if (source.name === "echo") return splitArguments(source.words).operands;
	if (source.name === "printf") return splitArguments(source.words).operands.slice(1);
	return undefined;
}

/** `rm -r` of a precious place; `find` deleting everything it walks from one (-delete, -exec rm, or piped to xargs rm). */
export const recursiveDelete: ShellGuard = (line, ctx) => {
	const all = runs(line);
	for (const { words, name, command } of all) {
		if (name !== "rm") continue;
		const { options, operands: given } = splitArguments(words);
		if (!hasOption(options, /[rR]/, "--recursive")) continue;
		let operands = given;
		if (wrapperChain(command.words).some((level) => commandName(level) === "xargs")) {
			const input = xargsInput(line, command, all);
			if (input === undefined) {
				return `\`${command.text}\` would delete paths it reads from its input, known only when it runs. Write the paths out (for example rm -rf ./build), so that what it deletes can be checked.`;
			}
			operands = [...given, ...input];
		}
		for (const operand of operands) {
			const danger = deleteDanger(operand, ctx);
			if (danger) return deleteReason(command.text, "delete", operand, danger, "rm -rf ./build");
		}
	}
	const runOf = (command: ShellCommand) => all.find((run) => run.command === command);
	for (const { words, name, command } of all) {
		if (name !== "find") continue;
		const find = readFind(words);
		const pipeline = line.pipelines.find((stages) => stages.includes(command));
		const piped = pipeline?.slice(pipeline.indexOf(command) + 1).find((stage) => runOf(stage)?.name === "rm");
		if (find.narrow || (!find.deletes && !piped)) continue;
		const what = piped ? `${command.text} | ${piped.text}` : command.text;
		for (const start of find.starts) {
			const danger = deleteDanger(start, ctx);
			if (danger) {
				const reason = deleteReason(what, "delete everything under", start, danger, "find ./build -delete");
				return `${reason} To delete only some files, narrow it with tests such as -name '*.tmp'.`;
			}
		}
	}
	return undefined;
};

export const makeFilesystem: ShellGuard = (line) => {
	const run = runs(line).find(({ name }) => name !== undefined && FILESYSTEM_MAKERS.test(name));
	return run
		? `\`${run.command.text}\` formats a disk or partition, erasing everything on it. loom does not run it: if a disk really must be formatted, tell the user the command so they can run it themselves.`
		: undefined;
};

/** A disk device `path` names, however written (`/dev//sda`, `/dev/./sda`, relative to the working folder). */
function isRawDisk(path: string, ctx: PolicyContext): boolean {
	return path !== "" && RAW_DISK.test(resolve(ctx.cwd, path));
}

/** The raw disk a command writes: dd of=, tee, shred or blkdiscard naming one, cp onto one. */
function diskWrittenBy({ words, name }: Run, ctx: PolicyContext): string | undefined {
	const paths = words.slice(1).map((word) => word.path ?? value(word));
	switch (name) {
		case "dd":
			return paths.find((arg) => arg.startsWith("of=") && isRawDisk(arg.slice(3), ctx))?.slice(3);
		case "tee":
		case "shred":
		case "blkdiscard":
			return paths.find((arg) => !arg.startsWith("-") && isRawDisk(arg, ctx));
		case "cp": {
			const last = paths.at(-1);
			return last !== undefined && isRawDisk(last, ctx) ? last : undefined;
		}
		default:
			return undefined;
	}
}

export const rawDiskWrite: ShellGuard = (line, ctx) => {
	const redirect = line.redirects.find((candidate) => candidate.writes && isRawDisk(candidate.target.path ?? candidate.target.text, ctx));
	let disk = redirect?.target.path ?? redirect?.target.text;
	let what = disk ? `\`> ${disk}\`` : undefined;
	if (!disk) {
		for (const run of runs(line)) {
			disk = diskWrittenBy(run, ctx);
			if (disk) {
				what = `\`${run.command.text}\``;
				break;
			}
		}
	}
	return disk
		? `${what} writes straight onto the disk device ${disk}, destroying its filesystem. Write to a regular file instead (for example dd of=./disk.img), or tell the user the command so they can run it themselves.`
		: undefined;
};

export const forkBomb: ShellGuard = (line) => {
	const bomb = runs(line).find(
		({ command, name }) =>
			command.inFunction !== undefined &&
			name === command.inFunction &&
			(command.background || line.pipelines.some((pipeline) => pipeline.length > 1 && pipeline.includes(command))),
	);
	return bomb
		? `The function ${bomb.name} starts copies of itself without end (a fork bomb), which would exhaust the machine's processes. Do not run it; if you meant to test process limits, say so to the user instead.`
		: undefined;
};

export const recursiveChmodRoot: ShellGuard = (line, ctx) => {
	for (const { words, name, command } of runs(line)) {
		if (name !== "chmod" && name !== "chown" && name !== "chgrp") continue;
		const { options, operands } = splitArguments(words);
		if (!hasOption(options, /R/, "--recursive")) continue;
		// The first operand is the mode or the owner.
		for (const operand of operands.slice(1)) {
			const target = operand.path === undefined ? undefined : preciousTarget(operand.path, ctx, false);
			if (target) {
				return `\`${command.text}\` would change the permissions or owner of every file under ${target}, which can leave the system unusable. Change only the files that need it (for example chmod -R u+w ./dist).`;
			}
		}
	}
	return undefined;
};

/** Files that are standard input; `/proc/<any process>/fd/0` too (`/proc/$$/fd/0`). */
const STDIN_FILES = new Set(["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"]);

function isStdin(word: ShellWord): boolean {
	return STDIN_FILES.has(resolve("/", word.path ?? value(word))) || /^\/+proc\/+[^/]+\/+fd\/+0\/*$/.test(word.path ?? word.text);
}

/**
 * Interpreters that run the script on standard input when given no code and no script file: the letters of their
 * options that give code (`python3 -c`, `perl -ne`) or name a module or script file to run instead (`-m`, `php -f`),
 * their long code options, and the options taking a value.
 */
const INTERPRETERS: Readonly<Record<string, { code: string; module?: string; file?: string; longCode?: readonly string[]; valueOptions: readonly string[] }>> = {
	python: { code: "c", module: "m", valueOptions: ["-W", "-X"] },
	node: { code: "ep", longCode: ["--eval", "--print"], valueOptions: ["-r", "--require", "--import", "--loader"] },
	perl: { code: "eE", valueOptions: [] },
	ruby: { code: "e", valueOptions: ["-I", "-r"] },
	php: { code: "r", file: "f", valueOptions: ["-c", "-d"] },
};

type Interpreter = (typeof INTERPRETERS)[string];

function interpreter(name: string | undefined): Interpreter | undefined {
	const base = name?.replace(/[\d.]+$/, "").replace(/^nodejs$/, "node");
	return base !== undefined && Object.hasOwn(INTERPRETERS, base) ? INTERPRETERS[base] : undefined;
}

/**
 * What an interpreter's arguments give it to run: inline code (`-c CODE`, `-eCODE`, `--eval=CODE`), a module
 * (`-m`), or a script: a file option's value, else the first operand when no code or module came before it
 * (operands after code are its arguments). Options and their values are skipped.
 */
interface InterpreterRun {
	code: ShellWord[];
	module?: ShellWord;
	script?: ShellWord;
}

function interpreterRun(words: readonly ShellWord[], known: Interpreter): InterpreterRun {
	const run: InterpreterRun = { code: [] };
	const valueLetters = known.valueOptions.filter((option) => /^-\w$/.test(option)).map((option) => option[1]);
	let ended = false;
	for (let at = 1; at < words.length; at++) {
		const word = words[at];
		const text = value(word);
		if (ended || !text.startsWith("-") || text === "-") {
			if (run.code.length === 0 && run.module === undefined && run.script === undefined) run.script = word;
			continue;
		}
		if (text === "--") ended = true;
		else if (text.startsWith("--")) {
			const code = known.longCode?.find((option) => text === option || text.startsWith(`${option}=`));
			if (code !== undefined) {
				const given = text === code ? words[++at] : word;
				if (given) run.code.push(given);
			} else if (known.valueOptions.includes(text)) at++;
		} else {
			// A cluster of letters: a letter taking a value takes the rest of the word, or the next word when the rest
			// is only more code letters (`node -pe CODE`).
			for (let index = 1; index < text.length; index++) {
				const letter = text[index];
				const kind = known.code.includes(letter) ? "code" : letter === known.module ? "module" : letter === known.file ? "file" : valueLetters.includes(letter) ? "value" : undefined;
				if (kind === undefined) continue;
				const attached = [...text.slice(index + 1)].some((rest) => !known.code.includes(rest));
				const given = attached ? word : words[++at];
				if (given === undefined || kind === "value") break;
				if (kind === "code") run.code.push(given);
				else if (kind === "module") run.module = given;
				else if (run.code.length === 0 && run.module === undefined) run.script = given;
				break;
			}
		}
	}
	return run;
}

/** Modules that only read their input as data: `curl … | python3 -m json.tool`. */
const DATA_MODULES = new Set(["json.tool"]);

/**
 * Names by which inline code runs code or commands, or reads a script file such as /dev/stdin: inline code naming
 * none of them evidently treats what it reads as data. A judgement of code as written, not proof against code
 * built to hide what it does.
 */
const RUNS_CODE =
	/exec|eval|compile|system|popen|spawn|fork|passthru|proc_open|assert|create_function|include|require|(?<![.\w])load\b|import\s*\(|__|getattr|importlib|runpy|pickle|marshal|ctypes|child_process|\bvm\b|Function|binding|dlopen|\bdo\b|\bqx\b|%x|`|open[^;]*\||\/dev\/|\/proc\//;

/**
 * An interpreter (python, node, perl, ruby, php) that may run what it reads on standard input as code: it reads
 * its script from there, or its inline code is not a literal, or names a way to run code, or its module is not
 * one known to read data.
 */
function interpreterRunsStdin(words: readonly ShellWord[], known: Interpreter): boolean {
	const { code, module, script } = interpreterRun(words, known);
	if (code.some((word) => word.literal === undefined || RUNS_CODE.test(word.literal))) return true;
	if (module !== undefined) return module.literal === undefined || !DATA_MODULES.has(module.literal);
	return code.length === 0 && (script === undefined || isStdinScript(script));
}

function isStdinScript(word: ShellWord): boolean {
	return value(word) === "-" || isStdin(word);
}

/** An interpreter whose code, module or script is made from a download (`node -e "$(curl …)" x`), or who reads its script from standard input beside a download. */
function interpreterRunsDownload({ command, words }: Run, known: Interpreter): boolean {
	if (!command.inner.some(downloads)) return false;
	const { code, module, script } = interpreterRun(words, known);
	const fromDownload = (word: ShellWord | undefined) => word !== undefined && word.literal === undefined && [...DOWNLOADERS].some((name) => new RegExp(`\\b${name}\\b`).test(word.text));
	if ([...code, module, script].some(fromDownload)) return true;
	return code.length === 0 && module === undefined && (script === undefined || isStdinScript(script));
}

/**
 * A shell reading its script from standard input: no `-c` code and no script file (or `-s`, `-`, /dev/stdin);
 * `source` or `.` of standard input; another interpreter that may run what it reads there as code.
 */
function readsScriptFromStdin({ words, name }: Run): boolean {
	if (name === "source" || name === ".") return words[1] !== undefined && isStdin(words[1]);
	const other = interpreter(name);
	if (other) return interpreterRunsStdin(words, other);
	if (name === undefined || !SHELLS.has(name)) return false;
	for (const word of words.slice(1)) {
		const text = value(word);
		if (text === "-") return true;
		if (text.startsWith("--")) continue;
		// A script file: standard input is its data, not code, unless the file is standard input.
		if (!text.startsWith("-")) return isStdin(word);
		if (text.includes("c")) return false;
		if (text.includes("s")) return true;
	}
	return true;
}

function downloads(command: ShellCommand): boolean {
	const name = commandName(effectiveWords(command.words));
	return (name !== undefined && DOWNLOADERS.has(name)) || command.inner.some(downloads);
}

export const downloadToShell: ShellGuard = (line) => {
	const all = runs(line);
	const runOf = (command: ShellCommand) => all.find((run) => run.command === command);
	// A shell reading standard input, or one a process substitution of the command starts: `tee >(sh)`.
	const feedsShell = (command: ShellCommand): boolean => readsScriptFromStdin(runOf(command)!) || command.inner.some(feedsShell);
	for (const pipeline of line.pipelines) {
		const from = pipeline.findIndex(downloads);
		const shell = from === -1 ? undefined : pipeline.slice(from + 1).find(feedsShell);
		if (shell) return pipedDownload(`${pipeline[from].text} | ${shell.text}`);
	}
	// curl … > >(bash)
	const writer = all.find(({ command, name }) => name !== undefined && DOWNLOADERS.has(name) && command.inner.some(feedsShell));
	if (writer) return pipedDownload(writer.command.text);
	// bash <(curl …), sh -c "$(curl …)", eval "$(wget -O- …)", source <(curl …), python3 <(curl …), node -e "$(curl …)";
	// an interpreter given a script file or code of its own (`node build.js "$(curl …)"`) only reads the download as data.
	const runner = all.find((run) => {
		const { command, name } = run;
		if (name === undefined) return false;
		const other = interpreter(name);
		if (other) return interpreterRunsDownload(run, other);
		return (SHELLS.has(name) || ["eval", "source", "."].includes(name)) && command.inner.some(downloads);
	});
	return runner ? pipedDownload(runner.command.text) : undefined;
};

function pipedDownload(what: string): string {
	return `\`${what}\` runs a script straight from the network without anyone reading it. Download it to a file first (curl -fsSL URL -o install.sh), read it, and run it only if it is what it claims; or tell the user the command so they can decide.`;
}
