// Removing checkpoints nobody can use any more: those of sessions whose file is gone (there is no other way to
// delete a session than deleting its file), those of --no-session runs whose process has ended, and, when asked,
// those older than some days. A project left without checkpoints loses its folder.
import { existsSync, lstatSync, rmSync, statSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { isAlive, directoryNames, replaceFileSync } from "../../core/index.js";
import { type RunRecord, type SessionLog, logPath, readLog } from "./checkpoint-log.js";
import { checkpointsRoot } from "./project-root.js";
import { ShadowRepo } from "./shadow-repo.js";

export interface PruneOptions {
	home: string;
	/** Also remove checkpoints of runs that started more than this many days ago. */
	olderThanDays?: number;
	/** Only this project's folder (a path under <home>/checkpoints), which stays even when emptied (it is in use). */
	projectDir?: string;
	now?: Date;
}

export interface PruneReport {
	/** Sessions whose checkpoints were all removed. */
	sessions: number;
	/** Runs whose checkpoints were removed (of those sessions and of old runs). */
	runs: number;
	/** Project folders removed whole. */
	projects: number;
	/** Disk space the checkpoint folders take less, in bytes. */
	freedBytes: number;
}

/** One process's index left behind by a crash is removed after this long. */
const STALE_INDEX_MS = 24 * 60 * 60 * 1000;

export async function pruneCheckpoints(options: PruneOptions): Promise<PruneReport> {
	const root = checkpointsRoot(options.home);
	const report: PruneReport = { sessions: 0, runs: 0, projects: 0, freedBytes: 0 };
	const dirs = options.projectDir ? [options.projectDir] : listDirs(root);
	for (const dir of dirs) {
		const before = folderSize(dir);
		await pruneProject(dir, options, report);
		report.freedBytes += Math.max(0, before - folderSize(dir));
	}
	return report;
}

async function pruneProject(dir: string, options: PruneOptions, report: PruneReport): Promise<void> {
	const now = options.now ?? new Date();
	const cutoff = options.olderThanDays === undefined ? undefined : new Date(now.getTime() - options.olderThanDays * 24 * 60 * 60 * 1000).toISOString();
	const forgotten: string[] = [];
	let kept = 0;
	for (const name of directoryNames(join(dir, "sessions"))) {
		if (!name.endsWith(".jsonl")) continue;
		const id = name.slice(0, -".jsonl".length);
		const log = readLog(logPath(dir, id));
		if (!log) continue;
		// A process that may still append to the log: rewriting it could lose what it appends.
		if (mayBeWriting(log)) {
			kept++;
			continue;
		}
		if (sessionGone(log)) {
			forgotten.push(...log.runs.flatMap(refsOf(id)));
			removeSession(dir, id);
			report.sessions++;
			report.runs += log.runs.length;
			continue;
		}
		const old = cutoff === undefined ? [] : log.runs.filter((run) => run.at < cutoff);
		if (old.length > 0) {
			forgotten.push(...old.flatMap(refsOf(id)));
			for (const run of old) rmSync(join(dir, "preimages", id, run.run), { recursive: true, force: true });
			report.runs += old.length;
			if (old.length === log.runs.length) {
				removeSession(dir, id);
				report.sessions++;
				continue;
			}
			rewriteLog(dir, id, log, new Set(old.map((run) => run.run)));
		}
		kept++;
	}
	removeStaleIndexes(dir, now);
	const gitDir = join(dir, "git");
	if (kept === 0 && !options.projectDir) {
		// Nothing left to restore to: the whole folder goes (a session starting meanwhile simply starts a new one).
		if (existsSync(join(dir, "sessions")) || existsSync(gitDir)) {
			rmSync(dir, { recursive: true, force: true });
			report.projects++;
		}
		return;
	}
	if (forgotten.length === 0 || !existsSync(gitDir)) return;
	const repo = ShadowRepo.at(dir);
	await repo.forget(forgotten);
	await repo.collectGarbage();
}

/** Refs a run's trees are kept by. */
function refsOf(sessionId: string): (run: RunRecord) => string[] {
	return (run) => (run.mode === "tree" ? ["before", "after", "outside"].map((name) => `${sessionId}/${run.run}/${name}`) : []);
}

/**
 * A process that wrote the log runs, or may (it ran on another host). Such a log is neither removed (a new
 * session's file appears only with its first message, after its first checkpoint) nor rewritten.
 */
function mayBeWriting(log: SessionLog): boolean {
	return log.writers.some((writer) => writer.host !== hostname() || isAlive(writer.pid));
}

/** The session file is gone (a --no-session run has none). */
function sessionGone(log: SessionLog): boolean {
	return log.header.file === null || !existsSync(log.header.file);
}

function removeSession(dir: string, id: string): void {
	rmSync(logPath(dir, id), { force: true });
	rmSync(join(dir, "preimages", id), { recursive: true, force: true });
}

function rewriteLog(dir: string, id: string, log: SessionLog, removed: ReadonlySet<string>): void {
	const lines = [log.header, ...log.runs.filter((run) => !removed.has(run.run))].map((value) => `${JSON.stringify(value)}\n`);
	// Replaced whole: a reader never sees half a log.
	replaceFileSync(logPath(dir, id), lines.join(""));
}

function removeStaleIndexes(dir: string, now: Date): void {
	const indexes = join(dir, "indexes");
	for (const name of directoryNames(indexes)) {
		try {
			if (now.getTime() - statSync(join(indexes, name)).mtimeMs > STALE_INDEX_MS) rmSync(join(indexes, name), { force: true });
		} catch {
			// Removed meanwhile.
		}
	}
}

function listDirs(root: string): string[] {
	return directoryNames(root)
		.map((name) => join(root, name))
		.filter((path) => {
			try {
				return lstatSync(path).isDirectory();
			} catch {
				return false;
			}
		});
}

/** The disk space a folder takes, as du counts it: the blocks of its files and folders (their bytes where unknown). */
function folderSize(path: string): number {
	let stat;
	try {
		stat = lstatSync(path);
	} catch {
		return 0;
	}
	const own = stat.blocks === undefined ? stat.size : stat.blocks * 512;
	if (!stat.isDirectory()) return own;
	return directoryNames(path).reduce((total, name) => total + folderSize(join(path, name)), own);
}
