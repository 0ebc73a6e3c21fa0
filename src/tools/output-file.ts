// The file that keeps a long command output, capped: the first bytes go straight into it; after those, the
// last bytes are kept in a rolling pair of segment files, joined to it when the command ends, after a line
// saying what was dropped. Everything passes through write streams, so a fast command is slowed to the disk's
// pace (back-pressure) instead of filling memory.
import fs from "node:fs";
import { finished, pipeline } from "node:stream/promises";
import { formatSize } from "./truncate.js";

/** What the finished file holds when the output did not fit: bytes from the start and from the end. */
export interface KeptParts {
	head: number;
	tail: number;
}

const STREAM_OPTIONS = { highWaterMark: 1024 * 1024 };

export class CappedOutputFile {
	private readonly headLimit: number;
	private readonly tailLimit: number;
	private readonly head: fs.WriteStream;
	private headBytes = 0;
	/** The segment being written (the newest bytes) and the one before it; older ones are deleted. */
	private segment?: { path: string; stream: fs.WriteStream; bytes: number };
	private previous?: { path: string; stream: fs.WriteStream };
	private segments = 0;
	private failure?: Error;

	/** Creates the file (it must not exist). `maxBytes`: output kept, three quarters head, one quarter tail. */
	constructor(
		readonly path: string,
		maxBytes: number,
	) {
		this.tailLimit = Math.max(1, Math.floor(maxBytes / 4));
		this.headLimit = maxBytes - this.tailLimit;
		this.head = this.watch(fs.createWriteStream(path, { flags: "wx", ...STREAM_OPTIONS }));
	}

	/** Set once writing failed; the file is then not to be offered to anyone. */
	get error(): Error | undefined {
		return this.failure;
	}

	/** Returns false when the caller should wait for drained() before writing more. */
	write(chunk: Buffer): boolean {
		if (this.failure) return true;
		const room = this.headLimit - this.headBytes;
		if (room >= chunk.length) {
			this.headBytes += chunk.length;
			return this.head.write(chunk);
		}
		let headAccepted = true;
		if (room > 0) {
			this.headBytes += room;
			headAccepted = this.head.write(chunk.subarray(0, room));
		}
		return this.writeTail(room > 0 ? chunk.subarray(room) : chunk) && headAccepted;
	}

	drained(): Promise<void> {
		const waiting = [this.head, this.segment?.stream].find((stream) => stream?.writableNeedDrain);
		if (!waiting || this.failure) return Promise.resolve();
		return new Promise((resolve) => {
			const done = () => {
				waiting.off("drain", done);
				waiting.off("error", done);
				waiting.off("close", done);
				resolve();
			};
			waiting.on("drain", done);
			waiting.on("error", done);
			waiting.on("close", done);
		});
	}

	/**
	 * Joins the kept tail to the head and closes the file. Returns the parts kept when some of the output was
	 * dropped, undefined when the file holds all of it (or when writing failed: see `error`).
	 */
	async finish(totalBytes: number): Promise<KeptParts | undefined> {
		const { segment, previous } = this;
		try {
			await Promise.all([segment, previous].map((part) => part && endStream(part.stream)));
			if (this.failure) return undefined;
			let tailBytes = segment?.bytes ?? 0;
			// The tail is the end of the previous segment, then the current one: tailLimit bytes in all.
			const fromPrevious = previous && segment ? this.tailLimit - segment.bytes : 0;
			tailBytes += fromPrevious;
			const dropped = totalBytes - this.headBytes - tailBytes;
			if (dropped > 0) {
				this.head.write(
					`\n[... ${dropped} bytes (${formatSize(dropped)}) dropped here: this file keeps the first ${this.headBytes} and the last ${tailBytes} of ${totalBytes} bytes ...]\n`,
				);
			}
			if (previous && fromPrevious > 0) await this.append(previous.path, this.tailLimit - fromPrevious);
			if (segment) await this.append(segment.path, 0);
			return dropped > 0 ? { head: this.headBytes, tail: tailBytes } : undefined;
		} catch (error) {
			this.failure ??= error as Error;
			return undefined;
		} finally {
			await endStream(this.head);
			await Promise.all([segment, previous].map((part) => part && fs.promises.rm(part.path, { force: true })));
		}
	}

	private writeTail(piece: Buffer): boolean {
		let rest = piece;
		while (rest.length > 0) {
			if (!this.segment || this.segment.bytes === this.tailLimit) this.rotate();
			const segment = this.segment!;
			const part = rest.length <= this.tailLimit - segment.bytes ? rest : rest.subarray(0, this.tailLimit - segment.bytes);
			segment.bytes += part.length;
			segment.stream.write(part);
			rest = rest.subarray(part.length);
		}
		return !this.segment!.stream.writableNeedDrain;
	}

	/** A new segment; the one before the previous is no longer needed. */
	private rotate(): void {
		const old = this.previous;
		// Its writes may still be under way: it is deleted once they are done (never destroyed mid-write).
		if (old) void endStream(old.stream).then(() => fs.promises.rm(old.path, { force: true }).catch(() => {}));
		if (this.segment) {
			this.segment.stream.end();
			this.previous = { path: this.segment.path, stream: this.segment.stream };
		}
		const path = `${this.path}.tail-${this.segments++}`;
		this.segment = { path, stream: this.watch(fs.createWriteStream(path, { flags: "wx", ...STREAM_OPTIONS })), bytes: 0 };
	}

	private async append(path: string, start: number): Promise<void> {
		await pipeline(fs.createReadStream(path, { start }), this.head, { end: false });
	}

	private watch(stream: fs.WriteStream): fs.WriteStream {
		stream.on("error", (error) => {
			this.failure ??= error;
		});
		return stream;
	}
}

/** Ends a stream (if not ended yet) and waits until everything written is on disk or it failed. */
async function endStream(stream: fs.WriteStream): Promise<void> {
	if (!stream.writableEnded && !stream.destroyed) stream.end();
	await finished(stream).catch(() => {});
}
