// A file as it was read, so that a later write can tell whether anyone changed it in between.
import { fstatSync, statSync } from "node:fs";
import fs from "node:fs/promises";
import { readAt } from "../checked-read.js";

/** The file another program changed between a read and the write that was to replace it. */
export class FileChangedError extends Error {
	constructor(readonly path: string) {
		super(`${path} changed on disk while editing.`);
		this.name = "FileChangedError";
	}
}

/**
 * What was read, and the still-open file it was read from: its size and modification time then, and its identity
 * (device and inode) so a file replaced by another program's rename counts as changed too. Close it when done.
 */
export interface FileSnapshot {
	path: string;
	handle: fs.FileHandle;
	/** The content read. */
	bytes: Buffer;
	size: number;
	mtimeMs: number;
	dev: number;
	ino: number;
}

/**
 * Reads a whole file and keeps it open. The content is the file's at one moment: if it grew while being read, it is
 * read again (a few times; a file that never stops growing is caught as changed when it is written back).
 */
export async function readSnapshot(path: string): Promise<{ bytes: Buffer; snapshot: FileSnapshot }> {
	const handle = await fs.open(path, "r");
	try {
		for (let attempt = 1; ; attempt++) {
			const bytes = await readWhole(handle);
			const stat = await handle.stat();
			if (stat.size === bytes.length || attempt === 5) {
				return { bytes, snapshot: { path, handle, bytes, size: bytes.length, mtimeMs: stat.mtimeMs, dev: stat.dev, ino: stat.ino } };
			}
		}
	} catch (error) {
		await handle.close();
		throw error;
	}
}

/** From the start to the end, by position (a FileHandle's own position would carry over between reads). */
async function readWhole(handle: fs.FileHandle): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let position = 0;
	for (;;) {
		const buffer = Buffer.allocUnsafe(Math.max(64 * 1024, (await handle.stat()).size - position + 1));
		const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
		if (bytesRead === 0) break;
		chunks.push(buffer.subarray(0, bytesRead));
		position += bytesRead;
	}
	return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/**
 * Throws FileChangedError when the file at `target` is no longer the snapshot's file as it was read. With
 * `appends`, a file that only grew (what was read is still its start) passes: the caller carries the appended
 * bytes over (bytesFrom). Synchronous, so the caller's rename follows it with nothing in between.
 */
export function assertUnchanged(target: string, snapshot: FileSnapshot, appends: boolean): void {
	let atPath: { dev: number; ino: number } | undefined;
	try {
		atPath = statSync(target);
	} catch {
		atPath = undefined;
	}
	if (atPath?.dev !== snapshot.dev || atPath.ino !== snapshot.ino) throw new FileChangedError(snapshot.path);
	const now = fstatSync(snapshot.handle.fd);
	if (now.size === snapshot.size && now.mtimeMs === snapshot.mtimeMs) return;
	if (appends && now.size > snapshot.size && startsWithSnapshot(snapshot)) return;
	throw new FileChangedError(snapshot.path);
}

function startsWithSnapshot(snapshot: FileSnapshot): boolean {
	return readAt(snapshot.handle.fd, 0, snapshot.size).equals(snapshot.bytes);
}

/** bytesFrom, synchronous: for the moment between the last check and a rename. */
export function bytesFromSync(snapshot: FileSnapshot, offset: number): Buffer {
	return readAt(snapshot.handle.fd, offset, Math.max(0, fstatSync(snapshot.handle.fd).size - offset));
}

/** What the snapshot's file holds from `offset` on now (bytes another program appended to it since it was read). */
export async function bytesFrom(snapshot: FileSnapshot, offset: number): Promise<Buffer> {
	const size = (await snapshot.handle.stat()).size;
	if (size <= offset) return Buffer.alloc(0);
	const extra = Buffer.alloc(size - offset);
	const { bytesRead } = await snapshot.handle.read(extra, 0, extra.length, offset);
	return extra.subarray(0, bytesRead);
}
