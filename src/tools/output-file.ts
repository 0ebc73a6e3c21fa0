// The file that keeps a long command output, capped: the first bytes go straight into it; after those, the
// last bytes are kept in a ring (a side file written round and round), joined to it in order when the command
// ends, after a line saying what was dropped. Everything passes through write streams, so a fast command is
// slowed to the disk's pace (back-pressure) instead of filling memory, and the ring rewrites the same pages
// instead of growing the disk.
import fs from "node:fs";
import { finished, pipeline } from "node:stream/promises";
import { formatSize } from "../core/index.js";

/** What the finished file holds when the output did not fit: bytes from the start and from the end. */
export interface KeptParts {
	head: number;
	tail: number;
}

const HIGH_WATER_MARK = 1024 * 1024;

export class CappedOutputFile {
	private readonly headLimit: number;
	private readonly tailLimit: number;
	private readonly head: fs.WriteStream;
	private headBytes = 0;
	private readonly ringPath: string;
	/** The stream writing the current lap of the ring, from its start; a new one starts each lap. */
	private ring?: fs.WriteStream;
	/** The previous lap's stream, until its last writes are done (the next lap must not overtake them). */
	private lastLap?: fs.WriteStream;
	private ringBytes = 0;
	private laps = 0;
	private readonly ringHighWaterMark: number;
	private failure?: Error;

	/** Creates the file (it must not exist). `maxBytes`: output kept, three quarters head, one quarter tail. */
	constructor(
		readonly path: string,
		maxBytes: number,
	) {
		this.tailLimit = Math.max(1, Math.floor(maxBytes / 4));
		this.headLimit = maxBytes - this.tailLimit;
		this.ringPath = `${path}.tail`;
		this.head = this.watch(fs.createWriteStream(path, { flags: "wx", highWaterMark: HIGH_WATER_MARK }));
		// The ring's buffer must fill before a lap does, or back-pressure would never start.
		this.ringHighWaterMark = Math.max(16 * 1024, Math.min(HIGH_WATER_MARK, Math.floor(this.tailLimit / 4)));
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
		return this.writeRing(room > 0 ? chunk.subarray(room) : chunk) && headAccepted;
	}

	drained(): Promise<void> {
		if (this.failure) return Promise.resolve();
		const waits: Promise<unknown>[] = [];
		for (const stream of [this.head, this.ring]) if (stream?.writableNeedDrain) waits.push(drainOf(stream));
		if (this.lastLap) waits.push(endStream(this.lastLap));
		return Promise.all(waits).then(() => {});
	}

	/**
	 * Joins the ring, in order, to the head and closes the file. Returns the parts kept when some of the output
	 * was dropped, undefined when the file holds all of it (or when writing failed: see `error`).
	 */
	async finish(totalBytes: number): Promise<KeptParts | undefined> {
		try {
			await Promise.all([this.lastLap, this.ring].map((stream) => stream && endStream(stream)));
			if (this.failure) return undefined;
			// From the second lap on, the ring is full: the previous lap's end, then the current lap.
			const tailBytes = this.laps > 1 ? this.tailLimit : this.ringBytes;
			const dropped = totalBytes - this.headBytes - tailBytes;
			if (dropped > 0) {
				this.head.write(
					`\n[... ${dropped} bytes (${formatSize(dropped)}) dropped here: this file keeps the first ${this.headBytes} and the last ${tailBytes} of ${totalBytes} bytes ...]\n`,
				);
			}
			if (tailBytes > this.ringBytes) await this.append(this.ringBytes, this.tailLimit);
			if (this.ringBytes > 0) await this.append(0, this.ringBytes);
			return dropped > 0 ? { head: this.headBytes, tail: tailBytes } : undefined;
		} catch (error) {
			this.failure ??= error as Error;
			return undefined;
		} finally {
			await endStream(this.head);
			if (this.ring) await fs.promises.rm(this.ringPath, { force: true });
		}
	}

	private writeRing(piece: Buffer): boolean {
		if (!this.ring || this.ringBytes === this.tailLimit) this.nextLap();
		const room = this.tailLimit - this.ringBytes;
		if (piece.length <= room) {
			this.ringBytes += piece.length;
			// A new lap waits for the previous one's writes first (see drained()).
			return this.ring!.write(piece) && !this.lastLap;
		}
		this.ringBytes = this.tailLimit;
		this.ring!.write(piece.subarray(0, room));
		return this.writeRing(piece.subarray(room));
	}

	private nextLap(): void {
		if (this.ring) {
			const ended = this.ring;
			ended.end();
			this.lastLap = ended;
			endStream(ended).then(() => {
				if (this.lastLap === ended) this.lastLap = undefined;
			});
		}
		// The first lap creates the ring file; the next ones write it again from its start.
		const flags = this.ring ? "r+" : "wx";
		this.ring = this.watch(fs.createWriteStream(this.ringPath, { flags, start: 0, highWaterMark: this.ringHighWaterMark }));
		this.ringBytes = 0;
		this.laps++;
	}

	/** Copies bytes [start, end) of the ring to the end of the file. */
	private async append(start: number, end: number): Promise<void> {
		await pipeline(fs.createReadStream(this.ringPath, { start, end: end - 1 }), this.head, { end: false });
	}

	private watch(stream: fs.WriteStream): fs.WriteStream {
		stream.on("error", (error) => {
			this.failure ??= error;
		});
		return stream;
	}
}

function drainOf(stream: fs.WriteStream): Promise<void> {
	return new Promise((resolve) => {
		const done = () => {
			stream.off("drain", done);
			stream.off("error", done);
			stream.off("close", done);
			resolve();
		};
		stream.on("drain", done);
		stream.on("error", done);
		stream.on("close", done);
	});
}

/** Ends a stream (if not ended yet) and waits until everything written is on disk or it failed. */
async function endStream(stream: fs.WriteStream): Promise<void> {
	if (!stream.writableEnded && !stream.destroyed) stream.end();
	await finished(stream).catch(() => {});
}
