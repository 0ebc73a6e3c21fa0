// Reads a shell command line with tree-sitter's bash grammar (WebAssembly, loaded as soon as a session with a shell
// tool gets its policy) and lists what it would run. A real parser, not a tokenizer: quotes, escapes, $(…),
// backticks, <(…), heredocs, subshells, functions and redirections are where bash says they are, and whatever
// does not parse is flagged.
import { createRequire } from "node:module";
import type { Language, Node, Parser } from "@vscode/tree-sitter-wasm";
import { withBaselineWasm } from "../../core/index.js";
import { braceAlternatives } from "./brace-expansion.js";
import { effectiveWords } from "./command-wrappers.js";
import { mktempPath } from "./mktemp-path.js";
import { shellCode } from "./shell-code.js";
import { evaluatedArguments, evaluatedNode } from "./shell-evaluation.js";
import { commandName, type ShellCommand, type ShellLine, type ShellRedirect, type ShellWord } from "./shell-line.js";

/** `bash -c "bash -c '…'"` is read this deep; deeper code counts as not parsed. */
const MAX_NESTING = 4;
/** Redirection operators that write their target. */
const WRITE_OPS = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);

let loading: Promise<Parser> | undefined;

/** Everyday constructs: words, quotes, expansions, pipes, lists, redirections, a heredoc, a loop, a function. */
const WARM_UP = [
	`cd "src/app" && grep -rn 'needle' . | head -20 > /tmp/out.txt 2>&1 || echo "none: $HOME \${x:-y}" $(date +%s) \`id\``,
	"for f in *.ts; do [ -f \"$f\" ] && wc -l < \"$f\"; done; x=1 export Y=2; (cd a; ls) &",
	"f() { local a=$1; return 0; }; if test -n \"$a\"; then cat <<EOF | tr a b\nline $a\nEOF\nfi; echo $((1 + 2)) <(ls)",
].join("\n");

/**
 * The grammar, loaded once per tree-sitter runtime. The runtime is a CommonJS module, one per process however many
 * copies of this module are loaded (bundles, re-imported modules): a second `Parser.init()` would replace the
 * WebAssembly instance under a load or a parse already running, so the load is kept on the runtime itself.
 */
const GRAMMAR = Symbol.for("loom.shell-grammar");
type Runtime = typeof import("@vscode/tree-sitter-wasm") & { [GRAMMAR]?: Promise<Language> };

function loadGrammar(require: NodeJS.Require): Promise<Language> {
	const runtime = require("@vscode/tree-sitter-wasm") as Runtime;
	runtime[GRAMMAR] ??= withBaselineWasm(async () => {
		await runtime.Parser.init();
		return runtime.Language.load(require.resolve("@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm"));
	}).catch((error: unknown) => {
		runtime[GRAMMAR] = undefined;
		throw error;
	});
	return runtime[GRAMMAR];
}

function loadParser(): Promise<Parser> {
	loading ??= (async () => {
		const require = createRequire(import.meta.url);
		const bash = await loadGrammar(require);
		const treeSitter = require("@vscode/tree-sitter-wasm") as Runtime;
		const parser = new treeSitter.Parser();
		parser.setLanguage(bash);
		return parser;
	})().catch((error: unknown) => {
		// The next call tries again rather than failing forever.
		loading = undefined;
		throw new Error(`the shell parser could not be loaded (${(error as Error).message})`);
	});
	return loading;
}

/**
 * Starts loading the parser now, off the path of the first bash call (whose preparation would otherwise wait on
 * the grammar); a failure is left for that call to meet and retry.
 */
export function preloadShellParser(): void {
	// V8 compiles a WebAssembly function (and a JavaScript one) when it is first called: reading one line of
	// everyday shell compiles the paths a call takes now, beside the model's request, not in the first bash call
	// (~100 ms on a 2-core machine).
	warming ??= parseShell(WARM_UP, "/").then(
		() => undefined,
		() => {
			warming = undefined;
		},
	);
}

let warming: Promise<void> | undefined;

/** Settles once the preload has read its line (or failed): for tests of what the first call waits for. */
export function shellParserWarmed(): Promise<void> | undefined {
	return warming;
}

/** Whether the parser's load has been started (and not failed): for tests of when it starts. */
export function shellParserRequested(): boolean {
	return loading !== undefined;
}

/** What is known of a word's path: ShellWord's `path` and `pathStart`. */
type PathValue = Pick<ShellWord, "path" | "pathStart">;
/** A word, or a variable's value, known only when the line runs. */
const UNKNOWN: PathValue = { pathStart: "" };

/** Lines read lately, by home and line: a loop of calls often runs the same command again (tests, git status). */
const recentLines = new Map<string, ShellLine>();
const RECENT_LINES = 64;

/**
 * Every command `source` would run. `home` expands `~` and `$HOME` in the words' paths. Rejects only when the parser
 * cannot load. The reading depends on nothing but the two, so a line read lately is answered from memory; the
 * answer is frozen, being shared.
 */
export async function parseShell(source: string, home: string): Promise<ShellLine> {
	const key = `${home}\0${source}`;
	const known = recentLines.get(key);
	if (known) {
		recentLines.delete(key);
		recentLines.set(key, known);
		return known;
	}
	const line = deepFreeze(new LineReader(await loadParser(), home).read(source));
	recentLines.set(key, line);
	if (recentLines.size > RECENT_LINES) recentLines.delete(recentLines.keys().next().value!);
	return line;
}

function deepFreeze<T>(value: T): T {
	if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
		Object.freeze(value);
		for (const inner of Object.values(value)) deepFreeze(inner);
	}
	return value;
}

interface Place {
	background: boolean;
	inFunction?: string;
	/** Offset of the code being read in the whole line (code inside `sh -c '…'` starts later). */
	offset: number;
	depth: number;
}

class LineReader {
	private readonly commands: ShellCommand[] = [];
	private readonly pipelines: ShellCommand[][] = [];
	private readonly redirects: ShellRedirect[] = [];
	private readonly unread: string[] = [];
	private complete = true;
	/**
	 * The values of variables the line assigns (`x=~`, `export x=…`), as the reading reaches them in source order;
	 * a variable it does not assign is unknown (it comes from the environment), except HOME.
	 */
	private readonly variables = new Map<string, PathValue>();

	constructor(
		private readonly parser: Parser,
		private readonly home: string,
	) {
		this.variables.set("HOME", { path: home, pathStart: home });
	}

	read(source: string): ShellLine {
		this.readCode(source, { background: false, offset: 0, depth: 0 });
		const commands = [...this.commands].sort((a, b) => a.start - b.start);
		return { commands, pipelines: this.pipelines, redirects: this.redirects, complete: this.complete, unread: this.unread };
	}

	private readCode(code: string, place: Place): ShellCommand[] {
		const tree = this.parser.parse(code);
		if (!tree) {
			this.complete = false;
			return [];
		}
		try {
			if (tree.rootNode.hasError) this.complete = false;
			const found: ShellCommand[] = [];
			this.visit(tree.rootNode, place, found);
			return found;
		} finally {
			tree.delete();
		}
	}

	/** Adds the commands at the top of `node` (not those inside their words) to `out`. */
	private visit(node: Node, place: Place, out: ShellCommand[]): void {
		if (node.isMissing || node.type === "ERROR") this.complete = false;
		if (evaluatedNode(node)) this.unread.push(node.text);
		switch (node.type) {
			case "command":
			case "declaration_command":
			case "unset_command":
				out.push(this.command(node, place));
				return;
			case "pipeline": {
				const stages: ShellCommand[] = [];
				for (const child of node.namedChildren) if (child) this.visit(child, place, stages);
				out.push(...stages);
				this.pipelines.push(stages);
				return;
			}
			case "redirected_statement": {
				const found: ShellCommand[] = [];
				const body = node.childForFieldName("body");
				if (body) this.visit(body, place, found);
				out.push(...found);
				// What a redirection of a command runs (`bash < <(curl …)`) builds that command's input or output.
				const into = body?.type === "command" && found[0] ? found[0].inner : out;
				const redirects = node.children.flatMap((child, index) =>
					child && node.fieldNameForChild(index) === "redirect" ? [this.redirect(child, place, into)] : [],
				);
				if (body?.type === "command" && found[0]) found[0].redirects.push(...redirects);
				return;
			}
			case "function_definition": {
				const body = node.childForFieldName("body");
				if (body) this.visit(body, { ...place, inFunction: node.childForFieldName("name")?.text }, out);
				return;
			}
			case "variable_assignment": {
				// What its value runs comes first, then the variable holds the value. A bare assignment is a command
				// of its own: it may change what later commands run (PATH, IFS, BASH_ENV, an exported variable).
				this.visitChildren(node, place, out);
				this.assign(node);
				const command: ShellCommand = { words: [], assignments: [node.text], redirects: [], inner: [], background: place.background, text: node.text, start: place.offset + node.startIndex };
				if (place.inFunction !== undefined) command.inFunction = place.inFunction;
				this.commands.push(command);
				out.push(command);
				return;
			}
			default:
				this.visitChildren(node, place, out);
		}
	}

	private visitChildren(node: Node, place: Place, out: ShellCommand[]): void {
		const children = node.children;
		children.forEach((child, index) => {
			// `a && b &` runs the whole list in the background.
			const background = place.background || children[index + 1]?.type === "&";
			if (child) this.visit(child, { ...place, background }, out);
		});
	}

	/** Records what a plain assignment gives its variable; anything but a plain value (+=, arrays) leaves it unknown. */
	private assign(node: Node): void {
		const name = node.childForFieldName("name");
		if (name?.type !== "variable_name") return;
		const value = node.childForFieldName("value");
		const appends = node.children.some((child) => child?.type === "+=");
		this.variables.set(name.text, appends || value?.type === "array" ? UNKNOWN : value ? this.valuePath(value) : { path: "", pathStart: "" });
	}

	private valuePath(value: Node): PathValue {
		const made = value.type === "command_substitution" ? this.mktempMade(value) : undefined;
		if (made !== undefined) return { path: made, pathStart: made };
		const { path, pathStart } = this.literal(value, true);
		return { path, pathStart };
	}

	/** `unset x`: $x is empty from there on. */
	private unset(words: readonly ShellWord[]): void {
		for (const word of words.slice(1)) if (word.literal && !word.literal.startsWith("-")) this.variables.set(word.literal, { path: "", pathStart: "" });
	}

	/** The path `$(mktemp …)` creates, when that is all the substitution runs. */
	private mktempMade(substitution: Node): string | undefined {
		const [command, ...rest] = substitution.namedChildren;
		if (command?.type !== "command" || rest.length > 0) return undefined;
		const words = command.children.flatMap((child, index) => {
			const field = command.fieldNameForChild(index);
			return child && (field === "name" || field === "argument") ? [this.word(child)] : [];
		});
		return commandName(words) === "mktemp" && command.namedChildren.length === words.length ? mktempPath(words) : undefined;
	}

	private command(node: Node, place: Place): ShellCommand {
		const words: ShellWord[] = [];
		const assignments: string[] = [];
		const redirects: ShellRedirect[] = [];
		const inner: ShellCommand[] = [];
		// What runs to build the command's words is not itself in the background or a pipe.
		const within: Place = { ...place, background: false };
		node.children.forEach((child, index) => {
			if (!child) return;
			const field = node.fieldNameForChild(index);
			if (child.type.endsWith("_redirect")) {
				redirects.push(this.redirect(child, within, inner));
				return;
			}
			if (child.type === "variable_assignment") {
				assignments.push(child.text);
				// `x=~ cmd $x`: the assignment is only cmd's environment, and bash expands $x before it applies.
				this.visitChildren(child, within, inner);
				// `export x=~`: from here on the variable holds the value.
				if (node.type !== "command") this.assign(child);
				return;
			} else if (field === "name" || field === "argument" || node.type !== "command") {
				if (child.isNamed || node.type !== "command") words.push(...this.words(child));
			}
			this.visit(child, within, inner);
		});
		if (node.type === "unset_command") this.unset(words);
		// The grammar knows no coproc: `coproc NAME { …; }` and `coproc while …` come out as other commands.
		if (coprocOfCompound(words)) {
			this.complete = false;
			this.unread.push(node.text);
		}
		const evaluated = evaluatedArguments(effectiveWords(words));
		if (evaluated) this.unread.push(evaluated);
		for (const code of this.codeRun(words)) {
			if (place.depth < MAX_NESTING) {
				inner.push(...this.readCode(code, { ...within, offset: place.offset + node.startIndex + 1, depth: place.depth + 1 }));
			} else this.complete = false;
		}
		const text = [...assignments, ...words.map((word) => word.literal ?? word.text)].join(" ");
		const command: ShellCommand = { words, assignments, redirects, inner, background: place.background, text, start: place.offset + node.startIndex };
		if (place.inFunction !== undefined) command.inFunction = place.inFunction;
		this.commands.push(command);
		return command;
	}

	/**
	 * The code `sh -c '…'` or `eval …` runs. The line is not complete when that code is dynamic, when the shell's
	 * options are not understood (each word that may be the code is read), or when the shell is not POSIX sh
	 * (its code is read with bash's grammar).
	 */
	private codeRun(words: readonly ShellWord[]): string[] {
		const run = effectiveWords(words);
		const dynamic = (): string[] => {
			this.complete = false;
			this.unread.push(run.map((word) => word.text).join(" "));
			return [];
		};
		const name = commandName(run);
		if (name === "eval" || name === "trap" || name === "watch" || name === "mapfile" || name === "readarray") {
			const parts = stringCode(name, run);
			if (parts.some((part) => part === undefined)) return dynamic();
			return parts.length > 0 ? [parts.join(" ")] : [];
		}
		const found = shellCode(run);
		if (!found) return [];
		if (found.code.includes(undefined)) return dynamic();
		if (!found.sure) this.complete = false;
		return found.code.filter((code) => code !== undefined);
	}

	/** Adds what runs inside the redirection (`> $(…)`, a heredoc's $(…)) to `out`. */
	private redirect(node: Node, place: Place, out: ShellCommand[]): ShellRedirect {
		const op = node.children.find((child) => child && !child.isNamed)?.type ?? "";
		const destination = node.childForFieldName("destination");
		const target: ShellWord = destination ? this.word(destination) : { text: "", pathStart: "" };
		const duplicatesFd = destination?.type === "number" || target.literal === "-";
		const writes = WRITE_OPS.has(op) || (op === ">&" && destination !== null && !duplicatesFd);
		for (const child of node.children) if (child) this.visit(child, place, out);
		const redirect: ShellRedirect = { op, target, writes };
		this.redirects.push(redirect);
		return redirect;
	}

	private word(node: Node): ShellWord {
		return { text: node.text, ...this.literal(node, true) };
	}

	/**
	 * The words `node` becomes: several when it holds a brace expansion (`rm -rf {~,x}` deletes ~ and x), each read
	 * as a word of its own; one word known only when the line runs when there would be too many.
	 */
	private words(node: Node): ShellWord[] {
		const alternatives = braceAlternatives(node.text);
		if (alternatives === undefined) return [this.word(node)];
		if (alternatives === "too many") return [{ text: node.text, pathStart: "" }];
		return alternatives.map((text) => {
			const tree = this.parser.parse(`: ${text}`);
			try {
				const command = tree?.rootNode.namedChildren[0];
				const argument = command?.type === "command" && command.namedChildren.length === 2 ? command.namedChildren[1] : undefined;
				return argument && !tree!.rootNode.hasError ? { ...this.word(argument), text } : { text, pathStart: "" };
			} finally {
				tree?.delete();
			}
		});
	}

	/** The word's literal and path, each undefined past an expansion it cannot know. */
	private literal(node: Node, first: boolean): Omit<ShellWord, "text"> {
		const plain = (text: string) => ({ literal: text, path: text, pathStart: text });
		switch (node.type) {
			case "word": {
				const literal = node.text.replace(/\\\n/g, "").replace(/\\(.)/gs, "$1");
				const path = first && node.text.startsWith("~") ? this.expandTilde(literal) : literal;
				return { literal, path, pathStart: path ?? "" };
			}
			case "number":
				return plain(node.text);
			case "raw_string":
				return plain(node.text.slice(1, -1));
			case "ansi_c_string": {
				const decoded = decodeAnsiC(node.text.slice(2, -1));
				return decoded === undefined ? UNKNOWN : plain(decoded);
			}
			case "command_name":
				return node.namedChildren[0] ? this.literal(node.namedChildren[0], first) : UNKNOWN;
			case "simple_expansion":
			case "expansion": {
				const name = variableName(node);
				return (name !== undefined && this.variables.get(name)) || UNKNOWN;
			}
			case "string":
				return this.joined(node.children.slice(1, -1), (child) =>
					child.type === "string_content" || !child.isNamed ? unescapeDoubleQuoted(child.text) : undefined,
				);
			case "concatenation":
				return this.joined(node.children, undefined);
			default:
				return UNKNOWN;
		}
	}

	/** Joins parts' literals and paths; `text` gives a part's plain text, or undefined to read it as a word part. */
	private joined(parts: readonly (Node | null)[], text: ((part: Node) => string | undefined) | undefined): Omit<ShellWord, "text"> {
		let literal: string | undefined = "";
		let path: string | undefined = "";
		let pathStart = "";
		parts.forEach((part, index) => {
			if (!part) return;
			const plain = text?.(part);
			const each = plain !== undefined ? { literal: plain, path: plain, pathStart: plain } : this.literal(part, index === 0 && text === undefined);
			literal = literal !== undefined && each.literal !== undefined ? literal + each.literal : undefined;
			if (path === undefined) return;
			if (each.path === undefined) pathStart = path + each.pathStart;
			path = each.path === undefined ? undefined : path + each.path;
		});
		return { literal, path, pathStart: path ?? pathStart };
	}

	/** `~` and `~/…` are the home folder; any other tilde prefix (`~+` the working folder, `~-`, `~root`) is known only when the line runs. */
	private expandTilde(literal: string): string | undefined {
		if (literal === "~") return this.home;
		if (literal.startsWith("~/")) return this.home + literal.slice(1);
		return undefined;
	}
}

/** The variable `$name` or `${name}` expands; undefined for special parameters and `${name…}` with operators. */
function variableName(node: Node): string | undefined {
	const parts = node.children.map((child) => child?.type);
	const plain = node.type === "simple_expansion" ? parts.length === 2 : parts.length === 3 && parts[2] === "}";
	return plain && parts[1] === "variable_name" ? node.children[1]!.text : undefined;
}

/** Inside double quotes a backslash escapes only $ ` " \ and a newline. */
function unescapeDoubleQuoted(text: string): string {
	return text.replace(/\\([$`"\\\n])/g, (_match, char: string) => (char === "\n" ? "" : char));
}

/**
 * The code `eval`, `trap` or `watch` runs from its words: eval's words joined; trap's first word when a signal
 * follows it; watch's words after its options. An element is undefined where a word is known only when it runs.
 */
function stringCode(name: string, words: readonly ShellWord[]): (string | undefined)[] {
	let args = words.slice(1);
	const option = (pattern: RegExp) => args[0]?.literal !== undefined && pattern.test(args[0].literal);
	if (name === "trap") {
		while (option(/^(-[lp]+|--)$/)) args = args.slice(1);
		if (args.length < 2 || args[0].literal === "-") return [];
		return [args[0].literal];
	}
	if (name === "mapfile" || name === "readarray") return callbackCode(args);
	if (name === "watch") {
		while (option(/^-/)) args = args.slice(option(/^(-n|--interval)$/) ? 2 : 1);
	}
	return args.map((word) => word.literal);
}

/** The callback `mapfile -C code` evaluates for each chunk of lines; none without -C. */
function callbackCode(args: readonly ShellWord[]): (string | undefined)[] {
	for (let at = 0; at < args.length; at++) {
		const option = args[at].literal;
		if (option === undefined || option === "--" || !option.startsWith("-")) return option === undefined && args[at].text.startsWith("-") ? [undefined] : [];
		const callback = option.indexOf("C");
		if (callback !== -1) return [callback === option.length - 1 ? args[at + 1]?.literal : option.slice(callback + 1)];
		// -d, -n, -O, -s, -u and -c take a value, attached or the next word.
		if (/^-[a-zA-Z]*[dnOsuc]$/.test(option)) at++;
	}
	return [];
}

const COMPOUND_STARTS = new Set(["{", "(", "while", "until", "if", "for", "case", "select", "[[", "((", "function"]);

/** `coproc` running a compound command, named (`coproc X { …; }`) or not. */
function coprocOfCompound(words: readonly ShellWord[]): boolean {
	if (commandName(words) !== "coproc") return false;
	const [first, second] = [words[1]?.text, words[2]?.text];
	return first === undefined || COMPOUND_STARTS.has(first) || (second !== undefined && COMPOUND_STARTS.has(second));
}

const ANSI_C_ESCAPES: Readonly<Record<string, string>> = { a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", "\\": "\\", "'": "'", '"': '"', "?": "?" };

/** The text of `$'…'` (its body given); undefined for escapes it does not know (`\cX`). */
function decodeAnsiC(body: string): string | undefined {
	let unknown = false;
	const text = body.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|.)/gs, (_match, escape: string) => {
		if (/^[xuU]/.test(escape) && escape.length > 1) return String.fromCodePoint(Number.parseInt(escape.slice(1), 16));
		if (/^[0-7]/.test(escape)) return String.fromCharCode(Number.parseInt(escape, 8) & 0xff);
		if (Object.hasOwn(ANSI_C_ESCAPES, escape)) return ANSI_C_ESCAPES[escape];
		unknown = true;
		return "";
	});
	return unknown ? undefined : text;
}
