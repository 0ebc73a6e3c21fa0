// The project's files for `@` completion: walked once in the background and kept for later. The walk is the one
// every file lister shares (walkTree: .gitignore files and .git/info/exclude applied, links never followed, its
// work in slices between which keystrokes are handled). A walk older than REFRESH_MS is redone in the background
// when asked for, the old list serving until it is done.
import { walkTree } from "../../core/index.js";

/** Files kept at most: past this a tree is too big to list, and the walk stops. */
export const MAX_FILES = 200_000;
/** A finished walk older than this is redone (in the background) the next time the index is asked for. */
export const REFRESH_MS = 30_000;
/** Listeners are told at most every this many new entries while a walk goes on. */
const NOTIFY_EVERY = 2_000;

export interface FileIndexSnapshot {
	/** Relative paths with "/" separators; directories end with "/". Each folder's entries right after it. */
	readonly paths: readonly string[];
	/** The same, lowercased, for matching. */
	readonly lower: readonly string[];
	/** The walk is over (else the list is still growing). */
	readonly complete: boolean;
	/** Bumped whenever the list changes. */
	readonly version: number;
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
	private readonly stopper = new AbortController();

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
		this.stopper.abort();
	}

	private now(): number {
		return (this.options.now ?? Date.now)();
	}

	private ensureFresh(): void {
		if (this.walking || this.stopper.signal.aborted) return;
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
		let sinceNotice = 0;
		try {
			await walkTree(
				this.root,
				(entry) => {
					const path = entry.kind === "directory" ? `${entry.path}/` : entry.path;
					paths.push(path);
					lower.push(path.toLowerCase());
					if (first && ++sinceNotice >= NOTIFY_EVERY) {
						sinceNotice = 0;
						this.version++;
						this.notify();
					}
					return paths.length < maxFiles;
				},
				{ signal: this.stopper.signal },
			);
		} catch {
			// Stopped, or the root cannot be listed: what was found stands.
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
