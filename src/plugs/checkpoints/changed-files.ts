// What changed in the work tree since the shadow index last recorded it, and which of those files are kept out
// of a checkpoint (too large, or binary and large).
import { closeSync, lstatSync } from "node:fs";
import { openRegularFile, readAt, type RegularFile, SNIFF_BYTES, looksBinary } from "../../core/index.js";
import { join } from "node:path";

export interface SnapshotLimits {
	/** Files larger than this are not recorded (listed as skipped). */
	maxFileBytes: number;
	/** Binary files larger than this are not recorded either. */
	maxBinaryBytes: number;
	/** More files than this to record at once: the tree is not worth snapshotting; write/edit pre-images are kept instead. */
	maxFiles: number;
}

export const DEFAULT_LIMITS: SnapshotLimits = {
	maxFileBytes: 8 * 1024 * 1024,
	maxBinaryBytes: 1024 * 1024,
	maxFiles: 30_000,
};

/** A file a checkpoint does not hold, and why. */
export interface SkippedFile {
	path: string;
	size: number;
	reason: "large" | "binary";
}

/** From `git ls-files -t --others --modified --deleted`: paths relative to the work tree. */
export interface WorkTreeChanges {
	untracked: string[];
	modified: string[];
	deleted: string[];
	/** Folders holding a repository of their own ("/"-terminated): never looked into. */
	nested: string[];
}

/** Parses the NUL-separated `<tag> <path>` records of `git ls-files -t -z`. */
export function parseLsFiles(records: readonly string[]): WorkTreeChanges {
	const untracked: string[] = [];
	const nested: string[] = [];
	const changed = new Set<string>();
	const deleted = new Set<string>();
	for (const record of records) {
		const tag = record[0];
		const path = record.slice(2);
		if (path === "") continue;
		if (tag === "?") {
			// A directory (trailing slash) is a nested repository: its files belong to it, not to this tree.
			if (path.endsWith("/")) nested.push(path);
			else untracked.push(path);
		} else if (tag === "R") deleted.add(path);
		else if (tag === "C") changed.add(path);
	}
	return { untracked, modified: [...changed].filter((path) => !deleted.has(path)), deleted: [...deleted], nested };
}

export interface StagingPlan {
	/** Paths to record as they are now (a path that is gone by then is removed from the index). */
	update: string[];
	/** Tracked paths that are now too large: removed from the index, so the checkpoint does not hold old content. */
	drop: string[];
	skipped: SkippedFile[];
}

/**
 * Decides what to stage. Regular files and symbolic links within the limits are recorded; larger ones are
 * skipped; anything else (a FIFO, a socket, a device) is left alone and never opened.
 */
export function planStaging(workTree: string, changes: WorkTreeChanges, limits: SnapshotLimits): StagingPlan {
	const plan: StagingPlan = { update: [...changes.deleted], drop: [], skipped: [] };
	const tracked = new Set(changes.modified);
	for (const path of [...changes.untracked, ...changes.modified]) {
		const verdict = judge(join(workTree, path), limits);
		if (verdict === "gone") plan.update.push(path);
		else if (verdict === "record") plan.update.push(path);
		else if (verdict !== "ignore") {
			plan.skipped.push({ path, ...verdict });
			if (tracked.has(path)) plan.drop.push(path);
		}
	}
	return plan;
}

type Verdict = "record" | "gone" | "ignore" | { size: number; reason: SkippedFile["reason"] };

function judge(file: string, limits: SnapshotLimits): Verdict {
	let stat;
	try {
		stat = lstatSync(file);
	} catch {
		return "gone";
	}
	if (stat.isSymbolicLink()) return "record";
	if (!stat.isFile()) return "ignore";
	if (stat.size > limits.maxFileBytes) return { size: stat.size, reason: "large" };
	if (stat.size > limits.maxBinaryBytes && startsBinary(file)) return { size: stat.size, reason: "binary" };
	return "record";
}

function startsBinary(file: string): boolean {
	let opened: RegularFile | undefined;
	try {
		// Checked after opening without blocking: a file swapped for a FIFO since it was looked at must not hang.
		opened = openRegularFile(file);
		return looksBinary(readAt(opened.fd, 0, SNIFF_BYTES));
	} catch {
		return false;
	} finally {
		if (opened) closeSync(opened.fd);
	}
}
