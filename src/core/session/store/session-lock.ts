// One writer per session file: a lock file next to it (`<file>.lock`) names the loom process that holds it.
// A pid lock rather than an mtime lock (proper-lockfile): a crashed holder is recognised at once by its pid, not
// after a staleness delay, and no timer has to keep refreshing the lock while a long synchronous step runs.
import { closeSync, openSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { CheckedReadError, readCheckedText, isAlive, onProcessExit } from "../../lib/index.js";

export interface LockHolder {
	pid: number;
	host: string;
	/** The process's start time as the kernel counts it (Linux), so a reused pid is not taken for the holder. */
	start?: string;
}

/** The session is open for writing in another loom process. */
export class SessionInUseError extends Error {
	constructor(
		readonly file: string,
		readonly holder: LockHolder,
	) {
		super(`${file} is in use by another loom process (${describeHolder(holder)}).`);
		this.name = "SessionInUseError";
	}
}

/** "pid 123", or "pid 123 on otherhost" for a lock taken on another machine. */
export function describeHolder(holder: LockHolder): string {
	return `pid ${holder.pid}${holder.host === hostname() ? "" : ` on ${holder.host}`}`;
}

function lockPathFor(file: string): string {
	return `${file}.lock`;
}

/** Locks held by this process, by lock path, with how many stores hold each (a /resume of the open session). */
const held = new Map<string, number>();

/** Released with close(); also removed when the process exits, however it exits short of a kill -9. */
export interface SessionLock {
	release(): void;
}

/** Takes the lock on `file`, taking over one left by a process that no longer runs; throws SessionInUseError. */
export function acquireSessionLock(file: string): SessionLock {
	const path = lockPathFor(file);
	const count = held.get(path);
	if (count !== undefined) held.set(path, count + 1);
	else {
		createLock(path, file);
		held.set(path, 1);
		onProcessExit(releaseAllLocks);
	}
	let released = false;
	return {
		release() {
			if (released) return;
			released = true;
			const left = (held.get(path) ?? 1) - 1;
			if (left > 0) return void held.set(path, left);
			held.delete(path);
			removeQuietly(path);
		},
	};
}

function createLock(path: string, file: string): void {
	const me: LockHolder = { pid: process.pid, host: hostname(), start: processStart(process.pid) };
	// Twice at most: once as is, once after removing a stale lock. A lock that reappears meanwhile is another
	// loom that won the same race, and it is reported as in use.
	for (let attempt = 0; ; attempt++) {
		let fd: number;
		try {
			fd = openSync(path, "wx", 0o644);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
			const text = readLock(path);
			const holder = parseHolder(text);
			if (attempt > 0 || (holder && isRunning(holder))) {
				throw new SessionInUseError(file, holder ?? { pid: 0, host: "unknown" });
			}
			// Removed only if it still holds what was judged stale: a takeover in between is not undone.
			if (readLock(path) === text) removeQuietly(path);
			continue;
		}
		try {
			writeSync(fd, JSON.stringify(me));
		} finally {
			closeSync(fd);
		}
		return;
	}
}

function parseHolder(text: string | undefined): LockHolder | undefined {
	try {
		const value = JSON.parse(text ?? "");
		if (Number.isInteger(value?.pid) && value.pid > 0 && typeof value.host === "string") return value as LockHolder;
	} catch {
		// A lock torn by a crash while it was written holds nothing: stale.
	}
	return undefined;
}

/** Whether the holder still runs. On another host nothing can be checked: assumed running. */
function isRunning(holder: LockHolder): boolean {
	if (holder.host !== hostname()) return true;
	// Not among this process's own locks (those never get here), so left by an earlier process with this pid.
	if (holder.pid === process.pid || !isAlive(holder.pid)) return false;
	const start = processStart(holder.pid);
	return holder.start === undefined || start === undefined || start === holder.start;
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); undefined where there is no /proc. */
function processStart(pid: number): string | undefined {
	const stat = readQuietly(`/proc/${pid}/stat`, 4096);
	// The command name (field 2) may hold spaces and parentheses: count fields after its closing parenthesis.
	const fields = stat?.slice(stat.lastIndexOf(")") + 2).split(" ");
	return fields?.[19];
}

/** A lock holds one small JSON object: anything bigger was not written by loom. */
const MAX_LOCK_BYTES = 4096;

/**
 * The lock's text: undefined when it is gone, "" when it is too big to be a lock (both count as stale). Something
 * other than a regular file in its place (a FIFO would block the read) is not loom's to remove: reported.
 */
function readLock(path: string): string | undefined {
	try {
		return readCheckedText(path, { maxBytes: MAX_LOCK_BYTES });
	} catch (error) {
		if (error instanceof CheckedReadError && (error.code === "ENOTREG" || error.code === "EISDIR")) {
			throw new Error(`${error.message} Remove it to open the session.`);
		}
		return error instanceof CheckedReadError && error.code === "ETOOBIG" ? "" : undefined;
	}
}

function readQuietly(path: string, maxBytes: number): string | undefined {
	try {
		return readCheckedText(path, { maxBytes });
	} catch {
		return undefined;
	}
}

function removeQuietly(path: string): void {
	try {
		unlinkSync(path);
	} catch {
		// Already gone.
	}
}

function releaseAllLocks(): void {
	for (const path of held.keys()) removeQuietly(path);
	held.clear();
}
