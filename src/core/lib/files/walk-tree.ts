// One directory walker for everything that lists a project's files (the grep, find and ls tools, the screen's
// @-completion): depth first, each folder's entries in name order, skipping what .gitignore excludes. The work
// is synchronous (tens of thousands of small reads are several times faster so) in slices of a few
// milliseconds, between which the event loop runs and the abort signal is heard.
import { type Dirent, readdirSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { AbortedError } from "../abort.js";
import { type IgnoreLevel, isIgnored, levelsAbove, levelsInside, loadIgnoreFactory, readIgnoreFile } from "./gitignore-levels.js";

export type EntryKind = "file" | "directory" | "symlink" | "other";

export interface TreeEntry {
	/** Relative to the walk's root, "/"-separated; never empty. */
	path: string;
	absolute: string;
	name: string;
	/** Symbolic links are reported as links, never followed. */
	kind: EntryKind;
	/** 1 for the root's own entries. */
	depth: number;
}

export interface WalkOptions {
	signal?: AbortSignal;
	/**
	 * Skip .git and what git ignores: .gitignore files (the root's, those of its folders up to the repository's
	 * top, those below) and .git/info/exclude. Default true.
	 */
	gitignore?: boolean;
	/** Entries deeper than this are not visited (1: the root's own entries only). */
	maxDepth?: number;
	/** A folder that could not be listed (permissions, removed meanwhile); the walk goes on without it. */
	onError?(path: string, error: NodeJS.ErrnoException): void;
}

/** What a visitor says: false stops the walk. */
export type Visitor = (entry: TreeEntry) => boolean | void;

/** Synchronous work between two turns of the event loop. */
const SLICE_MS = 8;
/** The clock is read once in this many entries (a power of two, less one): a slice ends within well under a millisecond of SLICE_MS. */
const CLOCK_EVERY = 63;

/** A folder being walked: its entries in order, and the next one to visit. */
interface Frame {
	absolute: string;
	/** `absolute` ending in the separator: an entry's absolute path is this and its name (cheaper than join). */
	base: string;
	/** "" for the root. */
	path: string;
	depth: number;
	entries: Dirent[];
	next: number;
	levels: readonly IgnoreLevel[];
}

/**
 * Visits every entry under `root` (a folder), each folder's contents right after it; resolves when done or
 * stopped by the visitor, and rejects with AbortedError when the signal aborts. Only an unreadable root is an
 * error; other folders that cannot be listed go to `onError`.
 */
export async function walkTree(root: string, visit: Visitor, options: WalkOptions = {}): Promise<void> {
	const { signal, maxDepth = Infinity } = options;
	const create = (options.gitignore ?? true) ? await loadIgnoreFactory() : undefined;
	checkAbort(signal);
	const absoluteRoot = resolve(root);
	const open = (absolute: string, path: string, depth: number, inherited: readonly IgnoreLevel[]): Frame => {
		const entries = readdirSync(absolute, { withFileTypes: true }).sort(byName);
		let levels = inherited;
		if (create && entries.some((entry) => entry.name === ".gitignore" && entry.isFile())) {
			const rules = readIgnoreFile(create, join(absolute, ".gitignore"));
			if (rules) levels = [...levels, { rules, prefix: "", strip: path === "" ? 0 : path.length + 1 }];
		}
		return { absolute, base: absolute.endsWith(sep) ? absolute : absolute + sep, path, depth, entries, next: 0, levels };
	};
	const stack = [open(absoluteRoot, "", 0, create ? levelsAbove(create, absoluteRoot) : [])];
	let sliceStart = performance.now();
	let visited = 0;
	while (stack.length > 0) {
		if ((++visited & CLOCK_EVERY) === 0 && performance.now() - sliceStart >= SLICE_MS) {
			await nextTurn();
			checkAbort(signal);
			sliceStart = performance.now();
		}
		const frame = stack[stack.length - 1]!;
		const dirent = frame.entries[frame.next++];
		if (dirent === undefined) {
			stack.pop();
			continue;
		}
		const kind = kindOf(dirent);
		const path = frame.path === "" ? dirent.name : `${frame.path}/${dirent.name}`;
		if (create && (dirent.name === ".git" || (frame.levels.length > 0 && isIgnored(frame.levels, path, kind === "directory")))) continue;
		const absolute = frame.base + dirent.name;
		const depth = frame.depth + 1;
		if (visit({ path, absolute, name: dirent.name, kind, depth }) === false) return;
		if (kind === "directory" && depth < maxDepth) {
			try {
				stack.push(open(absolute, path, depth, create && frame.levels.length > 0 ? levelsInside(frame.levels, path) : frame.levels));
			} catch (error) {
				options.onError?.(path, error as NodeJS.ErrnoException);
			}
		}
	}
}

function kindOf(dirent: Dirent): EntryKind {
	if (dirent.isFile()) return "file";
	if (dirent.isDirectory()) return "directory";
	if (dirent.isSymbolicLink()) return "symlink";
	return "other";
}

function byName(a: Dirent, b: Dirent): number {
	return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function nextTurn(): Promise<void> {
	return new Promise((done) => setImmediate(done));
}

function checkAbort(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new AbortedError();
}
