// What the search tools (grep, find, ls) share: where a search starts, how its paths are shown, glob patterns,
// and the bounded text the model gets back.
import fs from "node:fs/promises";
import path from "node:path";
import {
	AbortedError,
	type TreeEntry,
	walkTree,
	type WalkOptions,
	formatSize,
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
	truncateHead,
} from "../core/index.js";
import { resolveToCwd } from "./file-tool-paths.js";

/** Said once in the system prompt whichever of the search tools are enabled. */
export const SEARCH_RULE = "Search and list files with grep, find and ls rather than bash: they skip what .gitignore excludes and keep their output short.";

export interface SearchScope {
	absolute: string;
	kind: "directory" | "file";
	/** A path under the scope (walk-relative, "" for the scope itself) as results show it: from the working directory, or absolute outside it. */
	show(relative: string): string;
}

/** The folder or file a search starts from (default: the working directory); a clear error when there is none. */
export async function searchScope(given: string | undefined, cwd: string): Promise<SearchScope> {
	const absolute = given === undefined || given.trim() === "" ? path.resolve(cwd) : resolveToCwd(given, cwd);
	const shown = given ?? ".";
	let stat;
	try {
		stat = await fs.stat(absolute);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") throw new Error(`Path not found: ${shown} (resolved to ${absolute}).`);
		if (code === "EACCES") throw new Error(`Permission denied: ${shown}.`);
		throw error;
	}
	if (!stat.isDirectory() && !stat.isFile()) throw new Error(`${shown} is neither a folder nor a regular file; it is not searched.`);
	const fromCwd = path.relative(cwd, absolute);
	const inside = !fromCwd.startsWith("..") && !path.isAbsolute(fromCwd);
	const base = inside ? fromCwd.split(path.sep).join("/") : absolute;
	return {
		absolute,
		kind: stat.isDirectory() ? "directory" : "file",
		// A walk-relative path is already clean ("/"-separated, no "." or ".."): joined without normalising it again.
		show: (relative) => (relative === "" ? base || "." : base === "" ? relative : base.endsWith("/") ? base + relative : `${base}/${relative}`),
	};
}

/** Walks a search's folder; an abort becomes an error the model reads as the search being stopped. */
export async function walkScope(scope: SearchScope, visit: (entry: TreeEntry) => boolean | void, options: WalkOptions & { what: string }): Promise<void> {
	try {
		await walkTree(scope.absolute, visit, options);
	} catch (error) {
		if (error instanceof AbortedError) throw new Error(`${options.what} aborted.`);
		throw error;
	}
}

type Matcher = (path: string) => boolean;
let picomatch: ((glob: string, options: { dot: boolean }) => Matcher) | undefined;

/**
 * A glob as ripgrep and .gitignore read it: without a "/" it matches a name at any depth ("*.ts"), with one it
 * matches the path from the search's folder ("src/**\/*.ts"). Dotfiles match like any other name.
 */
export async function compileGlob(glob: string): Promise<Matcher> {
	if (glob.trim() === "") throw new Error("glob is empty: give a pattern such as *.ts or src/**/*.ts, or leave it out.");
	picomatch ??= (await import("picomatch")).default;
	const trimmed = glob.trim().replace(/^\.\//, "");
	const match = picomatch(trimmed, { dot: true });
	if (trimmed.includes("/")) return match;
	return (relative) => match(relative.slice(relative.lastIndexOf("/") + 1));
}

/**
 * The model's text: the lines that fit read's limits (2000 lines, 50 KB), then the notes (what was left out
 * and how to get it), which always fit.
 */
export function boundedOutput(lines: readonly string[], notes: readonly string[], narrow: string): { text: string; truncated: boolean } {
	const cut = truncateHead(lines.join("\n"), { maxLines: DEFAULT_MAX_LINES, maxBytes: DEFAULT_MAX_BYTES });
	const all = [...notes];
	if (cut.truncated) {
		const limit = cut.truncatedBy === "lines" ? `${DEFAULT_MAX_LINES} lines` : formatSize(DEFAULT_MAX_BYTES);
		all.unshift(`[Output cut at ${limit}: ${cut.outputLines} of ${cut.totalLines} lines shown. ${narrow}]`);
	}
	return { text: [cut.content, ...all].filter((part) => part !== "").join("\n\n"), truncated: cut.truncated };
}
