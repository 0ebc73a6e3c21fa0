// Replaces a file's content so that a crash leaves either the old content or the new, never half of it, and so
// that the file stays the same file: symlinks are written through (a dangling one gets its target created), and
// mode, owner and group are kept. A file with several hard links is written in place, so no name is split off.
// A small file loom owns itself (state, settings it writes) is simply replaced whole, atomically (replaceFileSync).
import { randomBytes } from "node:crypto";
import { appendFileSync, renameSync, rmSync, type Stats, writeFileSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { specialFileKind } from "../checked-read.js";
import { assertUnchanged, bytesFrom, bytesFromSync, type FileSnapshot } from "./file-snapshot.js";

export interface AtomicWriteOptions {
	/**
	 * The file as it was read: the write throws FileChangedError (and writes nothing) if another program changed
	 * it since. Bytes another program only appended meanwhile are carried over into the new file, after the new
	 * content, as they would follow it had they been appended after the write (a write that lands in the old file
	 * at the very moment of the rename may end up a line later than it would have).
	 */
	unchangedSince?: FileSnapshot;
}

/** Symlinks followed beyond this are a loop. */
const MAX_LINK_HOPS = 40;
/** Looks at a replaced file for late writes (each one that finds some is followed by another). */
const MAX_CARRY_ROUNDS = 10;
/**
 * How long a file that is being appended to is watched after it was replaced: a writer that opened it just before
 * (and was descheduled before writing) writes into the replaced file within this time, in all but extreme cases.
 */
const LATE_WRITER_GRACE_MS = 50;

/**
 * Where the bytes should land: the end of a symlink chain (the links stay as they are), or the path itself.
 * A dangling link leads to the file it names, which is then created.
 */
async function writeTarget(filePath: string): Promise<string> {
	try {
		return await fs.realpath(filePath);
	} catch {
		// Missing, or a dangling link: follow the links by hand to the name that does not exist yet.
	}
	let current = path.resolve(filePath);
	for (let hops = 0; hops < MAX_LINK_HOPS; hops++) {
		let link: string;
		try {
			link = await fs.readlink(current);
		} catch {
			return current;
		}
		current = path.resolve(path.dirname(current), link);
	}
	throw new Error(`${filePath}: too many levels of symbolic links; nothing was written.`);
}

async function existingFile(target: string, shownPath: string): Promise<Stats | undefined> {
	let stat: Stats;
	try {
		stat = await fs.stat(target);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		throw error;
	}
	if (stat.isDirectory()) throw new Error(`${shownPath} is a directory, not a file.`);
	// Renaming over a device or FIFO would replace it (as root, /dev/null itself): leave it alone.
	if (!stat.isFile()) throw new Error(`${shownPath} is not a regular file (it is ${specialFileKind(stat)}); nothing was written.`);
	// A rename needs only the directory's permission; a file its owner made read-only must not change all the same.
	await checkWritable(target, shownPath);
	return stat;
}

async function checkWritable(target: string, shownPath: string): Promise<void> {
	try {
		await fs.access(target, fs.constants.W_OK);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code !== "EACCES" && code !== "EPERM" && code !== "EROFS") throw error;
		throw new Error(`${shownPath} is read-only (${code === "EROFS" ? "read-only file system" : "no write permission"}); nothing was written.`);
	}
}

/** Whether a new file made by this process can be given `stat`'s owner and group (root can give any). */
function canKeepOwner(stat: Stats): boolean {
	const uid = process.geteuid?.();
	if (uid === undefined || uid === 0) return true;
	return stat.uid === uid && (stat.gid === process.getegid?.() || (process.getgroups?.() ?? []).includes(stat.gid));
}

/**
 * Writes `data` to `filePath`. A new file, or one with a single link whose owner can be kept: temp file in the
 * same directory (same filesystem, so rename is atomic), fsync, then rename over the target. Otherwise in place.
 */
export async function atomicWriteFile(filePath: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
	const target = await writeTarget(filePath);
	await fs.mkdir(path.dirname(target), { recursive: true });
	const stat = await existingFile(target, filePath);
	const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
	if (stat && (stat.nlink > 1 || !canKeepOwner(stat))) return writeInPlace(target, bytes, options.unchangedSince);

	const temp = await writeTemp(target, bytes, stat);
	const snapshot = options.unchangedSince;
	let carried = snapshot?.size ?? 0;
	try {
		if (snapshot) {
			assertUnchanged(target, snapshot, true);
			// What another program appended since the read follows the new content, as if appended after the write.
			const appended = bytesFromSync(snapshot, carried);
			if (appended.length > 0) appendFileSync(temp, appended);
			carried += appended.length;
		}
		renameSync(temp, target);
	} catch (error) {
		await fs.rm(temp, { force: true }).catch(() => {});
		throw error;
	}
	if (snapshot) await carryOverLateAppends(target, snapshot, carried);
}

/** The new content, complete and synced, in a temporary file beside the target, with the target's mode and owner. */
async function writeTemp(target: string, bytes: Buffer, stat: Stats | undefined): Promise<string> {
	const mode = stat ? stat.mode & 0o7777 : undefined;
	const temp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
	const handle = await fs.open(temp, "wx", mode ?? 0o666);
	try {
		await handle.writeFile(bytes);
		// Owner first: a chown may clear set-id bits, which the chmod then restores.
		if (stat && canKeepOwner(stat)) {
			const made = await handle.stat();
			if (made.uid !== stat.uid || made.gid !== stat.gid) await handle.chown(stat.uid, stat.gid);
		}
		// open() applies the umask; chmod restores the existing file's exact mode.
		if (mode !== undefined) await handle.chmod(mode);
		await handle.sync();
		await handle.close();
		return temp;
	} catch (error) {
		await handle.close().catch(() => {});
		await fs.rm(temp, { force: true }).catch(() => {});
		throw error;
	}
}

/**
 * For a file whose identity a rename would change (hard links, an owner this process cannot give a new file):
 * the new content is first kept complete in a temporary file beside it, then written over the file and synced,
 * then the temporary file goes. A crash midway leaves the complete new content in that temporary file.
 */
async function writeInPlace(target: string, bytes: Buffer, unchangedSince: FileSnapshot | undefined): Promise<void> {
	const backup = await writeTemp(target, bytes, undefined);
	try {
		const handle = await fs.open(target, "r+");
		try {
			// Strict: appended bytes could not be carried over here, the truncate would cut them.
			if (unchangedSince) assertUnchanged(target, unchangedSince, false);
			await handle.write(bytes, 0, bytes.length, 0);
			await handle.truncate(bytes.length);
			await handle.sync();
		} finally {
			await handle.close();
		}
	} finally {
		await fs.rm(backup, { force: true });
	}
}

/**
 * A writer that opened the old file just before the rename may write to it a moment later: those bytes are
 * appended to the new file too. While such a writer is about, the old file is watched a little longer.
 */
async function carryOverLateAppends(target: string, replaced: FileSnapshot, carried: number): Promise<void> {
	let active = carried > replaced.size;
	let waited = false;
	for (let round = 1; round <= MAX_CARRY_ROUNDS; round++) {
		const late = await bytesFrom(replaced, carried);
		if (late.length > 0) {
			await fs.appendFile(target, late);
			carried += late.length;
			active = true;
		} else if (active && !waited) {
			waited = true;
			await new Promise((resolve) => setTimeout(resolve, LATE_WRITER_GRACE_MS));
		} else return;
	}
}

/**
 * Replaces a small file loom owns whole: written beside it under a name no other writer uses, then renamed over
 * it, so a reader never sees half of it and two writers never write into each other's temporary file.
 */
export function replaceFileSync(target: string, data: string, options: { mode?: number } = {}): void {
	const temporary = `${target}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
	try {
		writeFileSync(temporary, data, options);
		renameSync(temporary, target);
	} catch (error) {
		rmSync(temporary, { force: true });
		throw error;
	}
}
