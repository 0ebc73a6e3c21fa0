// A lock held for a moment (one append, one rewrite of a small file) by the processes that share a file: a lock
// file beside it, created exclusively (O_EXCL), removed when released. One left by a process that died holding
// it is taken over once it is older than STALE_LOCK_MS, far longer than any holder keeps it.
import { randomBytes } from "node:crypto";
import { statSync, unlinkSync, writeFileSync } from "node:fs";
import { readCheckedText } from "../checked-read.js";

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
	// Names this holder, for the release and for a person who finds the lock.
	const token = `${process.pid} ${randomBytes(6).toString("hex")}\n`;
	try {
		writeFileSync(lockPath, token, { flag: "wx", mode: 0o600 });
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EEXIST" ? "held" : undefined;
	}
	return () => {
		// Not a lock that another process took over meanwhile (this holder was thought gone).
		try {
			if (readCheckedText(lockPath, { maxBytes: 100 }) === token) unlinkSync(lockPath);
		} catch {}
	};
}

/** Removes the lock at `lockPath` if it is stale; true when it is gone (removed here or by its holder). */
function removeIfStale(lockPath: string): boolean {
	try {
		const seen = statSync(lockPath);
		if (Date.now() - seen.mtimeMs < STALE_LOCK_MS) return false;
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
