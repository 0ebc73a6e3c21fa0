// The grep tool: lines matching a regex (or literal text) in the files under a path, .gitignore respected. The
// matching is always this file's; ripgrep, when it is on the PATH, only names the files worth reading (those
// holding a piece of text every match contains), and the Node walk does the rest where it is not.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { type Static, Type } from "@sinclair/typebox";
import {
	readAt,
	looksBinary,
	formatCount,
	formatSize,
	rawBoolean,
	rawNumber,
	rawString,
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
	compactArgs,
	type ToolDefinition,
	type ToolPresentation,
	ignoredFiles,
	walkOrder,
} from "../core/index.js";
import { type LineMatcher, lineMatcher, MAX_LINE_CHARS, matchLines, requiredText } from "./grep-match.js";
import { ripgrepFiles, ripgrepOnPath, ripgrepPass } from "./ripgrep.js";
import { boundedOutput, compileGlob, SEARCH_RULE, type SearchScope, searchScope, walkScope } from "./search-scope.js";

export const DEFAULT_GREP_LIMIT = 100;
/**
 * Larger files are not searched (grep reads each file whole); they are named in the result instead, unless they
 * lack the text every match holds (LineMatcher.needle), which is looked for a piece at a time.
 */
export const MAX_GREP_FILE_BYTES = 16 * 1024 * 1024;
/** Bytes read at a time when a file over the limit is looked through for the needle. */
const SCAN_BYTES = 1024 * 1024;
/** Files named at most in a note about files left out. */
const NAMED_FILES = 5;

export const grepSchema = Type.Object({
	pattern: Type.String({ description: "Regular expression (JavaScript syntax) to search for, or text when literal is true" }),
	path: Type.Optional(Type.String({ description: "Folder or file to search (default: the working directory)" })),
	glob: Type.Optional(Type.String({ description: "Only files matching this glob, e.g. *.ts (a name at any depth) or src/**/*.test.ts (a path)" })),
	ignoreCase: Type.Optional(Type.Boolean({ description: "Match regardless of case" })),
	literal: Type.Optional(Type.Boolean({ description: "Search for the pattern as plain text, not a regex" })),
	context: Type.Optional(Type.Integer({ minimum: 0, maximum: 20, description: "Lines to show before and after each match" })),
	limit: Type.Optional(Type.Integer({ minimum: 1, description: `Most matching lines to return (default ${DEFAULT_GREP_LIMIT})` })),
});

export type GrepToolInput = Static<typeof grepSchema>;

export interface GrepToolDetails {
	/** Matching lines returned. */
	matches: number;
	/** Files with at least one match. */
	files: number;
	/** Files searched. */
	searched: number;
	/** The search stopped at `limit` matches. */
	limitReached: boolean;
	/** The output was cut at read's limits. */
	truncated: boolean;
}

const description = `Search file contents: every line matching a regular expression (JavaScript syntax) or, with literal, a piece of text. Searches the files under path (default: the working directory), skipping what .gitignore excludes, binary files and files over ${formatSize(MAX_GREP_FILE_BYTES)} (named when they may hold a match).
Lines come back as path:line:text (context lines as path-line-text, "--" between groups). Returns at most limit matching lines (default ${DEFAULT_GREP_LIMIT}); lines over ${MAX_LINE_CHARS} characters are cut; the output is cut at ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024} KB.`;

/** "TODO in src (*.ts) -i -C2": the pattern, where, and the options a row needs to tell calls apart. */
function summarize(args: unknown): string {
	const pattern = rawString(args, "pattern");
	if (pattern === undefined) return compactArgs(args);
	const path = rawString(args, "path");
	const glob = rawString(args, "glob");
	const context = rawNumber(args, "context");
	const parts = [rawBoolean(args, "literal") ? JSON.stringify(pattern) : `/${pattern}/`];
	if (path) parts.push(`in ${path}`);
	if (glob) parts.push(`(${glob})`);
	if (rawBoolean(args, "ignoreCase")) parts.push("-i");
	if (context) parts.push(`-C${context}`);
	return parts.join(" ");
}

const presentation: ToolPresentation = {
	promptGuide: "search file contents by regex or literal text, with a glob filter and context lines",
	promptRules: [SEARCH_RULE],
	readOnly: true,
	summarizeArgs: summarize,
	resultLines(row) {
		if (row.status !== "done") return undefined;
		const matches = rawNumber(row.details, "matches");
		if (matches === undefined) return undefined;
		if (matches === 0) return [{ text: "no matches", style: "dim" }];
		const more = rawBoolean(row.details, "limitReached") ? " (limit reached)" : "";
		return [{ text: `${formatCount(matches, "match", "matches")} in ${formatCount(rawNumber(row.details, "files") ?? 0, "file")}${more}`, style: "dim" }];
	},
};

/** What searching the files found so far. */
interface GrepState {
	lines: string[];
	matches: number;
	files: number;
	searched: number;
	longLines: boolean;
	tooBig: string[];
}

/** Most source files fit: they are read into this one buffer, with no stat and no allocation per file. */
const SHARED_BYTES = 256 * 1024;
let shared: Buffer | undefined;

/**
 * `read` applied to the file opened for reading, or `failed` when it cannot be opened or read. Non-blocking: a
 * FIFO put where a file was answers at once instead of holding the search.
 */
function readingFile<T>(absolute: string, read: (fd: number) => T, failed: T): T {
	let fd: number;
	try {
		fd = openSync(absolute, constants.O_RDONLY | constants.O_NONBLOCK);
	} catch {
		return failed;
	}
	try {
		return read(fd);
	} catch {
		return failed;
	} finally {
		closeSync(fd);
	}
}

/**
 * A file's bytes (valid until the next call: only read, never kept), "too-big", or undefined when it cannot be
 * read as a regular file. A read that does not fill the shared buffer is the file's end (a regular file's read is
 * short only there); only a larger file is asked its size.
 */
function readFileBytes(absolute: string): Buffer | "too-big" | undefined {
	return readingFile<Buffer | "too-big" | undefined>(
		absolute,
		(fd) => {
			shared ??= Buffer.allocUnsafe(SHARED_BYTES);
			const first = readSync(fd, shared, 0, SHARED_BYTES, 0);
			if (first < SHARED_BYTES) return shared.subarray(0, first);
			const stat = fstatSync(fd);
			if (!stat.isFile()) return undefined;
			if (stat.size > MAX_GREP_FILE_BYTES) return "too-big";
			// What the file holds now up to the size it had: a file growing meanwhile is searched as it was.
			return readAt(fd, 0, stat.size);
		},
		undefined,
	);
}

/**
 * Whether a file's bytes hold `needle`, read a piece at a time (the pieces overlap by the needle's length less
 * one); true when the file cannot be read through, so that it is named rather than passed over.
 */
function fileHolds(absolute: string, needle: Buffer): boolean {
	return readingFile(
		absolute,
		(fd) => {
			const buffer = Buffer.allocUnsafe(SCAN_BYTES + needle.length);
			let kept = 0;
			for (let position = 0; ; ) {
				const read = readSync(fd, buffer, kept, SCAN_BYTES, position);
				if (read === 0) return false;
				position += read;
				const filled = kept + read;
				if (buffer.subarray(0, filled).indexOf(needle) !== -1) return true;
				kept = Math.min(needle.length - 1, filled);
				buffer.copy(buffer, 0, filled - kept, filled);
			}
		},
		true,
	);
}

/**
 * Reads one file and adds its matching lines; a file that cannot be read, or is binary, adds nothing. `relative`
 * is the file's path in the scope, shown (scope.show) only when the file contributes something. `holdsNeedle`:
 * the file is known to hold matcher.needle (ripgrep found it), so one over the size limit is not looked through.
 */
function searchFile(state: GrepState, absolute: string, scope: SearchScope, relative: string, matcher: LineMatcher, params: GrepToolInput, limit: number, holdsNeedle = false): void {
	const bytes = readFileBytes(absolute);
	if (bytes === undefined) return;
	if (bytes === "too-big") {
		// Without the needle no line can match: the file counts as searched.
		if (matcher.needle !== undefined && !holdsNeedle && !fileHolds(absolute, matcher.needle)) state.searched++;
		else state.tooBig.push(scope.show(relative));
		return;
	}
	state.searched++;
	if (looksBinary(bytes)) return;
	if (matcher.needle !== undefined && bytes.indexOf(matcher.needle) === -1) return;
	const text = bytes.toString("utf8");
	if (!matcher.mayMatch(text)) return;
	const context = params.context ?? 0;
	const found = matchLines(text, matcher, scope.show(relative), context, limit - state.matches);
	if (found.matches === 0) return;
	if (context > 0 && state.lines.length > 0) state.lines.push("--");
	for (const line of found.lines) state.lines.push(line);
	state.matches += found.matches;
	state.files++;
	state.longLines ||= found.longLines;
}

function resultNotes(state: GrepState, limit: number): string[] {
	const notes: string[] = [];
	if (state.matches >= limit) notes.push(`[Stopped at ${limit} matching lines (limit). Narrow the pattern, path or glob, or raise limit, to see more.]`);
	if (state.longLines) notes.push(`[Lines over ${MAX_LINE_CHARS} characters are cut (…); read the file for the whole line.]`);
	if (state.tooBig.length > 0) {
		const named = state.tooBig.slice(0, NAMED_FILES).join(", ");
		const more = state.tooBig.length > NAMED_FILES ? ` and ${state.tooBig.length - NAMED_FILES} more` : "";
		notes.push(`[Not searched, over ${formatSize(MAX_GREP_FILE_BYTES)}: ${named}${more}. Search them with bash (grep) if needed.]`);
	}
	return notes;
}

/**
 * The files ripgrep names, read in the walk's order and filtered by the walk's own ignore rules; false when
 * ripgrep could not run (the caller walks instead). With a needle (ripgrep's text, as bytes) ripgrep reads files
 * of any size, and a candidate over the size limit is one the walk would name; without one ripgrep leaves such
 * files out and names them itself.
 */
async function searchNamedFiles(
	rg: string,
	text: string,
	state: GrepState,
	scope: SearchScope,
	included: ((path: string) => boolean) | undefined,
	matcher: LineMatcher,
	params: GrepToolInput,
	limit: number,
	signal: AbortSignal | undefined,
): Promise<boolean> {
	const options = { maxFileBytes: matcher.needle === undefined ? MAX_GREP_FILE_BYTES : undefined, signal };
	const pass = await ripgrepPass(rg, scope.absolute, text, { ...options, ignoreCase: params.ignoreCase === true });
	if (!pass || signal?.aborted) return false;
	const ignored = await ignoredFiles(scope.absolute);
	const wanted = (path: string) => !ignored(path) && (!included || included(path));
	/** Where the walk would have stopped: the file whose matches reached the limit. */
	let last: string | undefined;
	for (const path of pass.candidates) {
		if (!wanted(path)) continue;
		searchFile(state, join(scope.absolute, path), scope, path, matcher, params, limit, true);
		if (state.matches >= limit) {
			last = path;
			break;
		}
	}
	const beforeStop = (path: string) => last === undefined || walkOrder(path, last) <= 0;
	/** Candidates over the size limit: ripgrep read them, the walk names them instead. */
	const namedBig = state.tooBig.length;
	for (const path of pass.tooBig) if (wanted(path) && beforeStop(path)) state.tooBig.push(scope.show(path));
	// The files the walk would have read: all of them unless a glob or the limit leaves some out.
	const files = included || last !== undefined ? await ripgrepFiles(rg, scope.absolute, options) : undefined;
	state.searched = (files ? files.filter((path) => wanted(path) && beforeStop(path)).length : pass.searched) - namedBig;
	return true;
}

export interface GrepToolOptions {
	/** ripgrep's path for the first pass; false: always the Node walk. Default: `rg` on the PATH, if any. */
	ripgrep?: string | false;
}

export function createGrepTool(cwd: string, options: GrepToolOptions = {}): ToolDefinition<typeof grepSchema, GrepToolDetails> {
	return {
		name: "grep",
		label: "Grep",
		description,
		parameters: grepSchema,
		...presentation,
		async execute(_toolCallId, params, signal) {
			const limit = params.limit ?? DEFAULT_GREP_LIMIT;
			const matcher = lineMatcher(params.pattern, params);
			const scope: SearchScope = await searchScope(params.path, cwd);
			const state: GrepState = { lines: [], matches: 0, files: 0, searched: 0, longLines: false, tooBig: [] };
			if (scope.kind === "file") {
				searchFile(state, scope.absolute, scope, "", matcher, params, limit);
			} else {
				const included = params.glob === undefined ? undefined : await compileGlob(params.glob);
				const rg = options.ripgrep === false ? undefined : (options.ripgrep ?? ripgrepOnPath());
				const text = rg === undefined ? undefined : requiredText(params.pattern, params);
				const named = rg !== undefined && text !== undefined && (await searchNamedFiles(rg, text, state, scope, included, matcher, params, limit, signal));
				if (!named) await walkScope(
					scope,
					(entry) => {
						if (entry.kind !== "file" || (included && !included(entry.path))) return;
						searchFile(state, entry.absolute, scope, entry.path, matcher, params, limit);
						return state.matches < limit;
					},
					{ signal, what: "grep" },
				);
			}
			const details = (truncated: boolean): GrepToolDetails => ({
				matches: state.matches,
				files: state.files,
				searched: state.searched,
				limitReached: state.matches >= limit,
				truncated,
			});
			if (state.matches === 0) {
				const where = `${scope.show("")}${params.glob ? ` (${params.glob})` : ""}`;
				const text = [`No matches in ${where}: ${formatCount(state.searched, "file")} searched.`, ...resultNotes(state, limit)].join("\n\n");
				return { content: [{ type: "text", text }], details: details(false) };
			}
			const output = boundedOutput(state.lines, resultNotes(state, limit), "Narrow the pattern, path or glob, or lower limit.");
			return { content: [{ type: "text", text: output.text }], details: details(output.truncated) };
		},
	};
}
