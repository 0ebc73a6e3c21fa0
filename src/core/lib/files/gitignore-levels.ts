// .gitignore rules as git applies them: each file's patterns are relative to its own directory, a deeper file
// overrides a shallower one, and .git/info/exclude comes before them all. A directory one level excludes hides
// nothing from the levels that re-include it; the walker leaves such a level out below that directory.
import { dirname, join, relative, sep } from "node:path";
import type { Ignore } from "ignore";
import { readCheckedText } from "../checked-read.js";
import { repositoryTop } from "./paths.js";

/** A .gitignore larger than this is not a list of patterns anybody wrote; it is skipped. */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

type IgnoreFactory = (options?: { ignorecase?: boolean }) => Ignore;

/** The rules of one .gitignore (or exclude file), and how a walk-relative path becomes relative to its folder. */
export interface IgnoreLevel {
	rules: Ignore;
	/** Put before a walk-relative path: the walk root's path inside this level's folder, with a final "/". */
	prefix: string;
	/** Cut from the start of a walk-relative path: this level's folder inside the walk root, with a final "/". */
	strip: number;
}

let factory: IgnoreFactory | undefined;

/** Loads the `ignore` package on first use: only searches need it, and startup stays lean. */
export async function loadIgnoreFactory(): Promise<IgnoreFactory> {
	factory ??= ((await import("ignore")).default as unknown as IgnoreFactory);
	return factory;
}

/** Case-insensitive where the filesystem usually is (git's core.ignorecase default there). */
const IGNORE_CASE = process.platform === "darwin" || process.platform === "win32";

/** The rules in `file`, or undefined when it is missing, unreadable or not a plain file of sane size. */
export function readIgnoreFile(create: IgnoreFactory, file: string): Ignore | undefined {
	let text: string;
	try {
		text = readCheckedText(file, { maxBytes: MAX_IGNORE_FILE_BYTES });
	} catch {
		return undefined;
	}
	return create({ ignorecase: IGNORE_CASE }).add(text);
}

/** "a/b" as the walker writes paths (forward slashes whatever the platform). */
function toSlashes(path: string): string {
	return sep === "/" ? path : path.split(sep).join("/");
}

/**
 * The levels that apply to a walk starting at `root` from above it: .git/info/exclude and every .gitignore
 * from the repository's top folder down to `root`'s parent. Outside a repository: none (the root's own
 * .gitignore, and those below, are read as the walk meets them).
 */
export function levelsAbove(create: IgnoreFactory, root: string): IgnoreLevel[] {
	const top = repositoryTop(root);
	if (top === undefined) return [];
	const levels: IgnoreLevel[] = [];
	const level = (rules: Ignore | undefined, folder: string) => {
		if (rules) levels.push({ rules, prefix: prefixFrom(folder, root), strip: 0 });
	};
	level(readIgnoreFile(create, join(top, ".git", "info", "exclude")), top);
	const folders: string[] = [];
	for (let dir = root; dir !== top; ) {
		dir = dirname(dir);
		folders.unshift(dir);
	}
	for (const folder of folders) level(readIgnoreFile(create, join(folder, ".gitignore")), folder);
	// A level that excludes the root (or a folder on the way to it) has no say inside: the search was asked for there.
	return levels.filter((each) => each.prefix === "" || !each.rules.test(each.prefix).ignored);
}

function prefixFrom(folder: string, root: string): string {
	const path = toSlashes(relative(folder, root));
	return path === "" ? "" : `${path}/`;
}

/**
 * Whether the levels exclude a walk-relative path (`directory`: tested as "path/", as git matches "build/").
 * Deeper levels decide over shallower ones; a level with no rule for the path leaves the verdict as it was.
 */
export function isIgnored(levels: readonly IgnoreLevel[], path: string, directory: boolean): boolean {
	let ignored = false;
	const tested = directory ? `${path}/` : path;
	for (const level of levels) {
		const result = level.rules.test(level.prefix + tested.slice(level.strip));
		if (result.ignored) ignored = true;
		else if (result.unignored) ignored = false;
	}
	return ignored;
}

/** The levels still in force inside a folder the walk enters: those that do not exclude the folder itself. */
export function levelsInside(levels: readonly IgnoreLevel[], folder: string): IgnoreLevel[] {
	return levels.filter((level) => !level.rules.test(`${level.prefix}${folder.slice(level.strip)}/`).ignored);
}
