// Which language server covers a file: the settings' `lsp` entries over the built-in defaults (a default runs only
// when its command is found in the project's node_modules/.bin or on PATH; none is downloaded), each with the
// extensions it covers, and the folder a server of it is started for (its workspace root).
import { existsSync } from "node:fs";
import { dirname, extname, isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { findOnPath, isExecutable } from "../../core/index.js";

/** settings.json's entry for one language (every field optional over the default of the same name). */
export interface LanguageServerSetting {
	/** The server's command and its arguments; the first word is looked up in node_modules/.bin, then on PATH. */
	command?: readonly string[];
	/** File name endings it covers (".ts"). */
	extensions?: readonly string[];
	/** False leaves this language without a server. */
	enabled?: boolean;
	/** Given to the server in `initialize` (typescript-language-server: `{"tsserver": {"path": …}}`). */
	initializationOptions?: unknown;
	/** How long an edit waits for the server's diagnostics at most (default DEFAULT_WAIT_MS). */
	waitMs?: number;
	/** Most diagnostics lines appended to a result (default DEFAULT_MAX_LINES). */
	maxLines?: number;
	/** Report new warnings too, not only errors. */
	warnings?: boolean;
}

/** settings.json's `lsp`: by language; false turns language servers off. */
export type LspSettings = false | Readonly<Record<string, LanguageServerSetting>>;

export const DEFAULT_WAIT_MS = 4000;
export const DEFAULT_MAX_LINES = 10;

export interface ServerSpec {
	language: string;
	/** The command resolved to a file; its arguments. */
	command: string;
	args: readonly string[];
	extensions: readonly string[];
	initializationOptions: (root: string) => unknown;
	waitMs: number;
	maxLines: number;
	warnings: boolean;
	/** Files whose folder is a workspace root of this language. */
	rootMarkers: readonly string[];
}

interface Default {
	command: readonly string[];
	extensions: readonly string[];
	rootMarkers: readonly string[];
	initializationOptions?: (root: string) => unknown;
}

const DEFAULTS: Readonly<Record<string, Default>> = {
	typescript: {
		command: ["typescript-language-server", "--stdio"],
		extensions: [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"],
		rootMarkers: ["tsconfig.json", "jsconfig.json", "package.json"],
		// The workspace's own TypeScript, where it ships a tsserver (TypeScript 7 does not).
		initializationOptions: (root) => {
			const tsserver = findUp(root, join("node_modules", "typescript", "lib", "tsserver.js"));
			return tsserver ? { tsserver: { path: tsserver } } : {};
		},
	},
	python: { command: ["pyright-langserver", "--stdio"], extensions: [".py", ".pyi"], rootMarkers: ["pyrightconfig.json", "pyproject.toml", "setup.py"] },
	go: { command: ["gopls"], extensions: [".go"], rootMarkers: ["go.work", "go.mod"] },
	rust: { command: ["rust-analyzer"], extensions: [".rs"], rootMarkers: ["Cargo.toml"] },
	c: { command: ["clangd"], extensions: [".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh"], rootMarkers: ["compile_commands.json", ".clangd"] },
};

/** The LSP languageId of a file, from its extension. */
export function languageId(path: string, language: string): string {
	const ext = extname(path).toLowerCase();
	const ids: Record<string, string> = {
		".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "typescriptreact",
		".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascriptreact",
		".py": "python", ".pyi": "python", ".go": "go", ".rs": "rust", ".c": "c", ".h": "c",
	};
	return ids[ext] ?? (language === "c" ? "cpp" : language);
}

/**
 * The servers for a project at `cwd`: every configured and default language whose command is found. Problems
 * (a configured command not found) are returned for the caller to report.
 */
export function serverSpecs(settings: LspSettings | undefined, cwd: string, env: NodeJS.ProcessEnv = process.env): { specs: ServerSpec[]; problems: string[] } {
	if (settings === false) return { specs: [], problems: [] };
	const specs: ServerSpec[] = [];
	const problems: string[] = [];
	const languages = new Set([...Object.keys(DEFAULTS), ...Object.keys(settings ?? {})]);
	for (const language of languages) {
		const setting = settings?.[language] ?? {};
		const fallback = DEFAULTS[language];
		if (setting.enabled === false) continue;
		const words = setting.command ?? fallback?.command;
		const extensions = setting.extensions ?? fallback?.extensions;
		if (!words || words.length === 0 || !extensions || extensions.length === 0) {
			problems.push(`The language server for "${language}" needs a "command" and "extensions" in settings' lsp.`);
			continue;
		}
		const command = findCommand(words[0]!, cwd, env);
		if (!command) {
			if (setting.command) problems.push(`The ${language} language server's command "${words[0]}" was found neither in node_modules/.bin nor on PATH.`);
			continue;
		}
		const configured = setting.initializationOptions;
		specs.push({
			language,
			command,
			args: words.slice(1),
			extensions: extensions.map((ext) => ext.toLowerCase()),
			initializationOptions: configured !== undefined ? () => configured : (fallback?.initializationOptions ?? (() => ({}))),
			waitMs: setting.waitMs ?? DEFAULT_WAIT_MS,
			maxLines: setting.maxLines ?? DEFAULT_MAX_LINES,
			warnings: setting.warnings ?? false,
			rootMarkers: fallback?.rootMarkers ?? [],
		});
	}
	return { specs, problems };
}

/** The spec covering `path` (the first whose extensions end its name). */
export function specFor(specs: readonly ServerSpec[], path: string): ServerSpec | undefined {
	const name = path.toLowerCase();
	return specs.find((spec) => spec.extensions.some((ext) => name.endsWith(ext)));
}

/**
 * The workspace root of `file` for `spec`: the nearest folder from the file's up to `cwd` holding one of its root
 * markers; `cwd` itself when none does (or the file lies outside it, then its nearest marked folder, else its folder).
 */
export function workspaceRoot(spec: ServerSpec, file: string, cwd: string): string {
	const inside = file.startsWith(cwd.endsWith("/") ? cwd : `${cwd}/`);
	let dir = dirname(file);
	for (;;) {
		if (spec.rootMarkers.some((marker) => existsSync(join(dir, marker)))) return dir;
		if (inside && dir === cwd) return cwd;
		const parent = dirname(dir);
		if (parent === dir) return inside ? cwd : dirname(file);
		dir = parent;
	}
}

function findCommand(word: string, cwd: string, env: NodeJS.ProcessEnv): string | undefined {
	if (isAbsolute(word) || word.includes("/")) {
		const path = resolve(cwd, word);
		return isExecutable(path) ? path : undefined;
	}
	const local = findUp(cwd, join("node_modules", ".bin", word));
	if (local && isExecutable(local)) return local;
	return findOnPath(word, env.PATH ?? "");
}

function findUp(from: string, relative: string): string | undefined {
	let dir = from;
	for (;;) {
		const path = join(dir, relative);
		if (existsSync(path)) return path;
		const parent = dirname(dir);
		if (parent === dir) return undefined;
		dir = parent;
	}
}


/** A file's URI as servers name it. */
export function uriOf(path: string): string {
	return pathToFileURL(path).href;
}
