// The project's files for `@` completion: walked once in the background (asynchronously, a directory at a time,
// so keystrokes are never held up), skipping what .gitignore files say to ignore, and kept for later. A walk
// older than REFRESH_MS is redone in the background when asked for, the old list serving until it is done.
//
// .gitignore matching is the `ignore` package's: the same rules git applies (negation, anchoring, directory
// patterns, escapes), the matcher eslint and many others use; writing our own would get the edge cases wrong.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Ignore } from "ignore";
import { readCheckedText } from "../../core/checked-read.js";

/** Files kept at most: past this a tree is too big to list, and the walk stops. */
export const MAX_FILES = 200_000;
/** A finished walk older than this is redone (in the background) the next time the index is asked for. */
export const REFRESH_MS = 30_000;
/** Listeners are told at most every this many new entries while a walk goes on. */
const NOTIFY_EVERY = 2_000;
const MAX_GITIGNORE_BYTES = 256 * 1024;

/** One .gitignore's rules, for paths under `base` (relative, "" for the root, else ending in "/"). */
interface Rules {
	base: string;
	matcher: Ignore;
}

export interface FileIndexSnapshot {
	/** Relative paths with "/" separators; directories end with "/". In walk order (shallow first). */
	readonly paths: readonly string[];
	/** The same, lowercased, for matching. */
	readonly lower: readonly string[];
	/** The walk is over (else the list is still growing). */
	readonly complete: boolean;
	/** Bumped whenever the list changes. */
	readonly version: number;
}

type Matcher = () => Ignore;

function readRules(ignore: Matcher, dir: string, base: string): Rules | undefined {
	let text: string;
	try {
		text = readCheckedText(join(dir, ".gitignore"), { maxBytes: MAX_GITIGNORE_BYTES });
	} catch {
		return undefined;
	}
	return { base, matcher: ignore().add(text) };
}

function ignored(rules: readonly Rules[], relative: string): boolean {
	for (const { base, matcher } of rules) {
		if (relative.startsWith(base) && matcher.ignores(relative.slice(base.length))) return true;
	}
	return false;
}

export class FileIndex {
	private paths: string[] = [];
	private lower: string[] = [];
	private complete = false;
	private version = 0;
	private walking: Promise<void> | undefined;
	/** When the last walk ended; undefined before the first has. */
	private finishedAt: number | undefined;
	private readonly listeners = new Set<() => void>();
	private stopped = false;

	constructor(
		readonly root: string,
		private readonly options: { maxFiles?: number; refreshMs?: number; now?: () => number } = {},
	) {}

	/** What is indexed so far; starts a walk when there is none yet, or refreshes an old one in the background. */
	snapshot(): FileIndexSnapshot {
		this.ensureFresh();
		return { paths: this.paths, lower: this.lower, complete: this.complete, version: this.version };
	}

	/** Resolves when the current walk is over. */
	async ready(): Promise<void> {
		this.ensureFresh();
		await this.walking;
	}

	/** Told when the list grows or is replaced. */
	subscribe(listener: () => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** Stops any walk (the screen is going away). */
	stop(): void {
		this.stopped = true;
	}

	private now(): number {
		return (this.options.now ?? Date.now)();
	}

	private ensureFresh(): void {
		if (this.walking || this.stopped) return;
		if (this.finishedAt !== undefined && this.now() - this.finishedAt <= (this.options.refreshMs ?? REFRESH_MS)) return;
		this.walking = this.walk().finally(() => {
			this.walking = undefined;
			this.finishedAt = this.now();
		});
	}

	private notify(): void {
		for (const listener of [...this.listeners]) listener();
	}

	private async walk(): Promise<void> {
		// A first walk fills the visible list as it goes; a refresh builds aside and swaps at the end.
		const first = this.version === 0 && this.paths.length === 0;
		const paths: string[] = first ? this.paths : [];
		const lower: string[] = first ? this.lower : [];
		const maxFiles = this.options.maxFiles ?? MAX_FILES;
		// Loaded with the first walk, not with the screen: most sessions never type "@".
		const { default: ignore } = await import("ignore");
		let sinceNotice = 0;
		const queue: { dir: string; relative: string; rules: Rules[] }[] = [{ dir: this.root, relative: "", rules: [] }];
		while (queue.length > 0 && paths.length < maxFiles && !this.stopped) {
			const { dir, relative, rules: inherited } = queue.shift() as (typeof queue)[number];
			let entries: import("node:fs").Dirent[];
			try {
				entries = await readdir(dir, { withFileTypes: true });
			} catch {
				continue;
			}
			const own = entries.some((entry) => entry.name === ".gitignore" && entry.isFile()) ? readRules(ignore, dir, relative) : undefined;
			const rules = own ? [...inherited, own] : inherited;
			entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
			for (const entry of entries) {
				if (entry.name === ".git") continue;
				// Symbolic links are listed as files and never followed: a link to a parent would loop.
				const isDir = entry.isDirectory();
				const path = `${relative}${entry.name}${isDir ? "/" : ""}`;
				if (ignored(rules, path)) continue;
				paths.push(path);
				lower.push(path.toLowerCase());
				if (isDir) queue.push({ dir: join(dir, entry.name), relative: path, rules });
				if (paths.length >= maxFiles) break;
			}
			sinceNotice += entries.length;
			if (first && sinceNotice >= NOTIFY_EVERY) {
				sinceNotice = 0;
				this.version++;
				this.notify();
			}
		}
		if (!first) {
			this.paths = paths;
			this.lower = lower;
		}
		this.complete = true;
		this.version++;
		this.notify();
	}
}
