// Fuzzy matching of the indexed files, in slices: a slice of paths per turn of the event loop, so a keystroke
// never waits for 50,000 paths to be scored. A query that extends the previous one is matched only against the
// previous one's matches. Asking again with another query drops the job under way.
import { fuzzyScoreTerms, queryTerms } from "./fuzzy-match.js";
import type { FileIndex, FileIndexSnapshot } from "./file-index.js";

/** Paths scored per turn of the event loop. */
export const SLICE = 4_000;
/** Matches kept, best first. */
export const MATCH_LIMIT = 50;

export interface FileMatches {
	/** The query these matches are for (they may be a previous query's while a new one is being matched). */
	query: string;
	/** Best first. */
	paths: string[];
	/** Matching is still going on (for this query, or the index is still growing). */
	pending: boolean;
}

interface Done {
	query: string;
	version: number;
	/** Indexes into the snapshot of every match, for narrowing by a longer query. */
	all: number[];
	top: string[];
}

interface Scored {
	index: number;
	score: number;
}

/** Keeps `best` the MATCH_LIMIT best, sorted best first (ties: the earlier path); no sort of every match. */
function keepBest(best: Scored[], entry: Scored): void {
	if (best.length === MATCH_LIMIT && entry.score <= best[best.length - 1].score) return;
	let at = best.length;
	while (at > 0 && best[at - 1].score < entry.score) at--;
	best.splice(at, 0, entry);
	if (best.length > MATCH_LIMIT) best.pop();
}

/** Folders above a path ("a/b/c.ts": 2; "a/b/": 1). */
function depth(path: string): number {
	let count = 0;
	for (let i = 0; i < path.length - 1; i++) if (path.charCodeAt(i) === 47) count++;
	return count;
}

interface Job {
	query: string;
	cancelled: boolean;
}

export class FileMatcher {
	private done: Done | undefined;
	private job: Job | undefined;
	private readonly listeners = new Set<() => void>();
	/** Turns of the event loop the last match took (for tests and benchmarks: a measure, not a time). */
	lastSlices = 0;

	constructor(private readonly index: FileIndex) {
		index.subscribe(() => this.changed());
	}

	/** Told when matches() would answer differently. */
	subscribe(listener: () => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** The matches known now for `query`; starts matching when they are not known yet. Never waits. */
	matches(query: string): FileMatches {
		const snapshot = this.index.snapshot();
		const done = this.done;
		if (done && done.query === query && done.version === snapshot.version) return { query, paths: done.top, pending: !snapshot.complete };
		if (this.job?.query !== query) this.start(query, snapshot);
		return { query: done?.query ?? query, paths: done?.top ?? [], pending: true };
	}

	private changed(): void {
		for (const listener of [...this.listeners]) listener();
	}

	private start(query: string, snapshot: FileIndexSnapshot): void {
		if (this.job) this.job.cancelled = true;
		const job: Job = { query, cancelled: false };
		this.job = job;
		const previous = this.done;
		// Only a longer query over the same list can narrow the previous matches.
		const narrowing = previous !== undefined && previous.version === snapshot.version && query.startsWith(previous.query) && queryTerms(previous.query).length > 0;
		const candidates = narrowing ? previous.all : undefined;
		void this.run(job, query, snapshot, candidates);
	}

	private async run(job: Job, query: string, snapshot: FileIndexSnapshot, candidates: number[] | undefined): Promise<void> {
		const terms = queryTerms(query);
		const total = candidates ? candidates.length : snapshot.paths.length;
		const all: number[] = [];
		const best: Scored[] = [];
		let slices = 0;
		// Never within matches(): its caller may be rendering, and is told of the result afterwards.
		for (let start = 0; start < total || slices === 0; start += SLICE) {
			await new Promise((resolve) => setImmediate(resolve));
			if (job.cancelled) return;
			slices++;
			const end = Math.min(total, start + SLICE);
			for (let k = start; k < end; k++) {
				const index = candidates ? candidates[k] : k;
				if (terms.length === 0) {
					// No query yet: the shallowest entries first.
					all.push(index);
					keepBest(best, { index, score: -depth(snapshot.paths[index]) });
					continue;
				}
				const score = fuzzyScoreTerms(terms, snapshot.paths[index], snapshot.lower[index]);
				if (score === undefined) continue;
				all.push(index);
				keepBest(best, { index, score });
			}
		}
		if (job.cancelled) return;
		const top = best.map((entry) => entry.index);
		this.lastSlices = Math.max(1, slices);
		this.done = { query, version: snapshot.version, all, top: top.map((index) => snapshot.paths[index]) };
		this.job = undefined;
		this.changed();
	}
}
