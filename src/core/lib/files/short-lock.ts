// A lock held for a moment (one append, one rewrite of a small file) by the processes that share a file: a lock
// file beside it, created exclusively (O_EXCL), naming its holder (pid and host), removed when released. One left
// by a process that died holding it is taken over at once when that process was of this machine, else once it is
// older than STALE_LOCK_MS, far longer than any holder keeps it.
import { randomBytes } from "node:crypto";
import { closeSync, openSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { readCheckedText } from "../checked-read.js";
import { isAlive } from "../process/index.js";

/** A lock file older than this is left by a holder that is gone. */
export const STALE_LOCK_MS = 10_000;
/** The pause between attempts while another process holds the lock. */
const RETRY_MS = 2;

export type ReleaseLock = () => void;

/**
 * Takes the lock at `lockPath`, waiting (blocking) up to `waitMs` for another holder to release it; undefined
 * when it is still held then, or cannot be made at all (no folder, no permission).
 */
export function takeShortLock(lockPath: string, waitMs: number): ReleaseLock | undefined {
	const deadline = Date.now() + waitMs;
	for (;;) {
		const release = createLock(lockPath);
		if (release !== "held") return release;
		if (removeIfStale(lockPath)) continue;
		if (Date.now() >= deadline) return undefined;
		sleepSync(RETRY_MS);
	}
}

function createLock(lockPath: string): ReleaseLock | "held" | undefined {
	// Names this holder, for the release, for a process finding the lock, and for a person.
	const token = `${process.pid} ${hostname()} ${randomBytes(6).toString("hex")}\n`;
	let fd: number;
	try {
		fd = openSync(lockPath, "wx", 0o600);
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EEXIST" ? "held" : undefined;
	}
	try {
		writeSync(fd, token);
	} catch {
		// A lock that names no holder would hold everyone off until stale: this one was never taken.
		try {
			unlinkSync(lockPath);
		} catch {}
		return undefined;
	} finally {
		closeSync(fd);
	}
	return () => {
		// Not a lock that another process took over meanwhile (this holder was thought gone).
		try {
			if (readCheckedText(lockPath, { maxBytes: 200 }) === token) unlinkSync(lockPath);
		} catch {}
	};
}

/** Whether the lock names a holder of this machine that is no longer running. */
function holderGone(lockPath: string): boolean {
	try {
		const [pid, host] = readCheckedText(lockPath, { maxBytes: 200 }).split(" ");
		return host === hostname() && !isAlive(Number(pid));
	} catch {
		return false;
	}
}

/** Removes the lock at `lockPath` if it is stale; true when it is gone (removed here or by its holder). */
function removeIfStale(lockPath: string): boolean {
	try {
		const seen = statSync(lockPath);
		if (Date.now() - seen.mtimeMs < STALE_LOCK_MS && !holderGone(lockPath)) return false;
		// Another process may have taken the stale lock over since: only the very file judged stale is removed.
		const now = statSync(lockPath);
		if (now.ino !== seen.ino || now.mtimeMs !== seen.mtimeMs) return false;
		unlinkSync(lockPath);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "ENOENT";
	}
}

function sleepSync(ms: number): void {
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
