// Collects a command's output with bounded memory: a rolling tail in memory, and the complete output in a
// temporary file once it is too big to return whole.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, type TruncationResult, truncateTail } from "./truncate.js";

export interface CollectorLimits {
	maxLines?: number;
	maxBytes?: number;
}

export interface CollectedOutput {
	/** The tail as the model sees it (sanitised, cut to the limits). */
	truncation: TruncationResult;
	/** Bytes the command wrote in total. */
	totalBytes: number;
	/** Set only when the output was cut: the file holding all of it. */
	fullOutputPath?: string;
}

/** Terminal noise out: colour codes, carriage-return progress redraws, other control characters. */
export function sanitizeOutput(text: string): string {
	return stripVTControlCharacters(text)
		.replace(/\r\n/g, "\n")
		.split("\n")
		.map((line) => {
			const redraw = line.lastIndexOf("\r");
			return redraw === -1 ? line : line.slice(redraw + 1);
		})
		.join("\n")
		.replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, "");
}

export class OutputCollector {
	readonly maxLines: number;
	readonly maxBytes: number;
	totalBytes = 0;
	private chunks: Buffer[] = [];
	private keptBytes = 0;
	/** Older output was let go from memory (it is in the file). */
	private dropped = false;
	/** Newlines seen, counted only until the output spills to a file (after that the count is not needed). */
	private newlines = 0;
	private file?: fs.WriteStream;
	private fileError?: Error;
	private filePath?: string;

	constructor(limits: CollectorLimits = {}) {
		this.maxLines = limits.maxLines ?? DEFAULT_MAX_LINES;
		this.maxBytes = limits.maxBytes ?? DEFAULT_MAX_BYTES;
	}

	/** Twice the byte limit stays in memory, so a cut at a line boundary still leaves a full tail. */
	private get keepBytes(): number {
		return this.maxBytes * 2;
	}

	/** Adds a chunk. Returns false when the caller should pause its sources until drained() resolves. */
	write(chunk: Buffer): boolean {
		this.totalBytes += chunk.length;
		this.chunks.push(chunk);
		this.keptBytes += chunk.length;

		if (!this.file) {
			for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) this.newlines++;
			if (this.totalBytes <= this.maxBytes && this.newlines <= this.maxLines) return true;
			// spill() writes every chunk kept so far, this one included.
			const file = this.spill();
			this.dropOldChunks();
			return !file.writableNeedDrain;
		}
		this.dropOldChunks();
		if (this.fileError) return true;
		return this.file.write(chunk);
	}

	/** Resolves when the temporary file can take more data. */
	drained(): Promise<void> {
		const file = this.file;
		if (!file || !file.writableNeedDrain || this.fileError) return Promise.resolve();
		return new Promise((resolve) => {
			const done = () => {
				file.off("drain", done);
				file.off("error", done);
				file.off("close", done);
				resolve();
			};
			file.on("drain", done);
			file.on("error", done);
			file.on("close", done);
		});
	}

	/** The tail so far, cut to the limits (for live updates and the final result). */
	tail(): TruncationResult {
		let text = sanitizeOutput(Buffer.concat(this.chunks).toString("utf8"));
		if (this.dropped) {
			// The oldest kept chunk may start mid-line; that fragment must not pass for a whole line.
			const firstBreak = text.indexOf("\n");
			if (firstBreak !== -1 && firstBreak < text.length - 1) text = text.slice(firstBreak + 1);
		}
		const result = truncateTail(text, { maxLines: this.maxLines, maxBytes: this.maxBytes });
		return this.dropped && !result.truncated ? { ...result, truncated: true, truncatedBy: "bytes" } : result;
	}

	/** Path of the temporary file, once the output has spilled. */
	get spillPath(): string | undefined {
		return this.fileError ? undefined : this.filePath;
	}

	/** Flushes the temporary file; keeps it only if the returned output was actually cut. */
	async finish(): Promise<CollectedOutput> {
		const truncation = this.tail();
		const file = this.file;
		if (file) {
			await new Promise<void>((resolve) => {
				if (file.closed || this.fileError) resolve();
				else file.end(() => resolve());
			});
		}
		let fullOutputPath = this.spillPath;
		if (fullOutputPath && !truncation.truncated) {
			await fs.promises.rm(fullOutputPath, { force: true });
			fullOutputPath = undefined;
		}
		return { truncation, totalBytes: this.totalBytes, ...(fullOutputPath ? { fullOutputPath } : {}) };
	}

	private spill(): fs.WriteStream {
		this.filePath = path.join(os.tmpdir(), `loom-bash-${Date.now()}-${randomBytes(4).toString("hex")}.log`);
		const file = fs.createWriteStream(this.filePath, { flags: "wx", highWaterMark: 1024 * 1024 });
		file.on("error", (error) => {
			// The model still gets the tail; it just cannot be pointed at a full copy.
			this.fileError = error;
		});
		for (const chunk of this.chunks) file.write(chunk);
		this.file = file;
		return file;
	}

	private dropOldChunks(): void {
		// Many tiny chunks would make shifting slow; merge them first.
		if (this.chunks.length > 64) this.chunks = [Buffer.concat(this.chunks)];
		while (this.chunks.length > 1 && this.keptBytes - this.chunks[0]!.length >= this.keepBytes) {
			this.keptBytes -= this.chunks.shift()!.length;
			this.dropped = true;
		}
		const only = this.chunks[0];
		if (this.chunks.length === 1 && only && only.length > this.keepBytes * 2) {
			// One huge chunk: keep just its end.
			this.chunks[0] = Buffer.from(only.subarray(only.length - this.keepBytes));
			this.keptBytes = this.chunks[0].length;
			this.dropped = true;
		}
	}
}
