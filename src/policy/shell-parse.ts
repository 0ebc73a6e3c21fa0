// Reads a shell command line with tree-sitter's bash grammar (WebAssembly, loaded on the first bash call) and
// lists what it would run. A real parser, not a tokenizer: quotes, escapes, $(…), backticks, <(…), heredocs,
// subshells, functions and redirections are where bash says they are, and whatever does not parse is flagged.
import { createRequire } from "node:module";
import type { Node, Parser } from "@vscode/tree-sitter-wasm";
import { effectiveWords } from "./command-wrappers.js";
import { commandName, type ShellCommand, type ShellLine, type ShellRedirect, type ShellWord } from "./shell-line.js";

/** Shells whose `-c` argument is code that runs. */
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash"]);
/** `bash -c "bash -c '…'"` is read this deep; deeper code counts as not parsed. */
const MAX_NESTING = 4;
/** Redirection operators that write their target. */
const WRITE_OPS = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);

let loading: Promise<Parser> | undefined;

function loadParser(): Promise<Parser> {
	loading ??= (async () => {
		const require = createRequire(import.meta.url);
		const treeSitter = require("@vscode/tree-sitter-wasm") as typeof import("@vscode/tree-sitter-wasm");
		await treeSitter.Parser.init();
		const bash = await treeSitter.Language.load(require.resolve("@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm"));
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

/** Every command `source` would run. `home` expands `~` and `$HOME` in the words' paths. Rejects only when the parser cannot load. */
export async function parseShell(source: string, home: string): Promise<ShellLine> {
	return new LineReader(await loadParser(), home).read(source);
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
	private complete = true;

	constructor(
		private readonly parser: Parser,
		private readonly home: string,
	) {}

	read(source: string): ShellLine {
		this.readCode(source, { background: false, offset: 0, depth: 0 });
		const commands = [...this.commands].sort((a, b) => a.start - b.start);
		return { commands, pipelines: this.pipelines, redirects: this.redirects, complete: this.complete };
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
				const redirects = node.children.flatMap((child, index) =>
					child && node.fieldNameForChild(index) === "redirect" ? [this.redirect(child, place, out)] : [],
				);
				if (body?.type === "command" && found[0]) found[0].redirects.push(...redirects);
				return;
			}
			case "function_definition": {
				const body = node.childForFieldName("body");
				if (body) this.visit(body, { ...place, inFunction: node.childForFieldName("name")?.text }, out);
				return;
			}
			default: {
				const children = node.children;
				children.forEach((child, index) => {
					// `a && b &` runs the whole list in the background.
					const background = place.background || children[index + 1]?.type === "&";
					if (child) this.visit(child, { ...place, background }, out);
				});
			}
		}
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
			if (child.type === "variable_assignment") assignments.push(child.text);
			else if (field === "name" || field === "argument" || node.type !== "command") {
				if (child.isNamed || node.type !== "command") words.push(this.word(child));
			}
			this.visit(child, within, inner);
		});
		const code = this.codeRun(words);
		if (code !== undefined && place.depth < MAX_NESTING) {
			inner.push(...this.readCode(code, { ...within, offset: place.offset + node.startIndex + 1, depth: place.depth + 1 }));
		} else if (code !== undefined) this.complete = false;
		const text = [...assignments, ...words.map((word) => word.literal ?? word.text)].join(" ");
		const command: ShellCommand = { words, assignments, redirects, inner, background: place.background, text, start: place.offset + node.startIndex };
		if (place.inFunction !== undefined) command.inFunction = place.inFunction;
		this.commands.push(command);
		return command;
	}

	/** The code `sh -c '…'` or `eval …` runs; a dynamic one cannot be read, so the line is not complete. */
	private codeRun(words: readonly ShellWord[]): string | undefined {
		const run = effectiveWords(words);
		const name = commandName(run);
		if (name === "eval") {
			const parts = run.slice(1).map((word) => word.literal);
			if (parts.some((part) => part === undefined)) this.complete = false;
			return parts.every((part) => part !== undefined) ? parts.join(" ") : undefined;
		}
		if (name === undefined || !SHELLS.has(name)) return undefined;
		for (let at = 1; at < run.length; at++) {
			const option = run[at].literal;
			if (option === undefined || !option.startsWith("-") || option.startsWith("--")) return undefined;
			if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(option)) {
				const code = run[at + 1]?.literal;
				if (code === undefined) this.complete = false;
				return code;
			}
		}
		return undefined;
	}

	/** Adds what runs inside the redirection (`> $(…)`, a heredoc's $(…)) to `out`. */
	private redirect(node: Node, place: Place, out: ShellCommand[]): ShellRedirect {
		const op = node.children.find((child) => child && !child.isNamed)?.type ?? "";
		const destination = node.childForFieldName("destination");
		const target: ShellWord = destination ? this.word(destination) : { text: "" };
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

	/** The word's literal and path, each undefined past an expansion it cannot know. */
	private literal(node: Node, first: boolean): { literal?: string; path?: string } {
		switch (node.type) {
			case "word": {
				const literal = node.text.replace(/\\\n/g, "").replace(/\\(.)/gs, "$1");
				return { literal, path: first && node.text.startsWith("~") ? this.expandTilde(literal) : literal };
			}
			case "number":
				return { literal: node.text, path: node.text };
			case "raw_string":
				return { literal: node.text.slice(1, -1), path: node.text.slice(1, -1) };
			case "command_name":
				return node.namedChildren[0] ? this.literal(node.namedChildren[0], first) : {};
			case "simple_expansion":
			case "expansion":
				return isHome(node) ? { path: this.home } : {};
			case "string":
				return this.joined(node.children.slice(1, -1), (child) =>
					child.type === "string_content" || !child.isNamed ? unescapeDoubleQuoted(child.text) : undefined,
				);
			case "concatenation":
				return this.joined(node.children, undefined);
			default:
				return {};
		}
	}

	/** Joins parts' literals and paths; `text` gives a part's plain text, or undefined to read it as a word part. */
	private joined(parts: readonly (Node | null)[], text: ((part: Node) => string | undefined) | undefined): { literal?: string; path?: string } {
		let literal: string | undefined = "";
		let path: string | undefined = "";
		parts.forEach((part, index) => {
			if (!part) return;
			const plain = text?.(part);
			const each = plain !== undefined ? { literal: plain, path: plain } : this.literal(part, index === 0 && text === undefined);
			literal = literal !== undefined && each.literal !== undefined ? literal + each.literal : undefined;
			path = path !== undefined && each.path !== undefined ? path + each.path : undefined;
		});
		return { literal, path };
	}

	private expandTilde(literal: string): string {
		if (literal === "~") return this.home;
		return literal.startsWith("~/") ? this.home + literal.slice(1) : literal;
	}
}

function isHome(node: Node): boolean {
	return node.text === "$HOME" || node.text === "${HOME}";
}

/** Inside double quotes a backslash escapes only $ ` " \ and a newline. */
function unescapeDoubleQuoted(text: string): string {
	return text.replace(/\\([$`"\\\n])/g, (_match, char: string) => (char === "\n" ? "" : char));
}
