// Collects a command's output with bounded memory: a rolling tail in memory, and the output in a temporary
// file once it is too big to return whole (up to a cap: see output-file.ts).
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import {
	formatSize,
	stripCommandOutput,
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
	type TruncationResult,
	truncateTail,
	outputFolder,
} from "../core/index.js";
import { CappedOutputFile, type KeptParts } from "./output-file.js";

/**
 * Most bytes of one command's output kept in its file: far more than anyone reads through (the model is shown
 * 50 KB and can read or grep the rest), and little enough that a runaway command cannot fill the disk (`yes`
 * wrote 1.9 GB in five seconds).
 */
export const MAX_OUTPUT_FILE_BYTES = 64 * 1024 * 1024;

export interface CollectorLimits {
	maxLines?: number;
	maxBytes?: number;
	/** Most bytes of output the file keeps (its start and its end); default MAX_OUTPUT_FILE_BYTES. */
	maxFileBytes?: number;
}

export interface CollectedOutput {
	/** The tail as the model sees it (sanitised, cut to the limits). */
	truncation: TruncationResult;
	/** Bytes the command wrote in total. */
	totalBytes: number;
	/** Set only when the output was cut: the file holding all of it (or its start and end, see fileKept). */
	fullOutputPath?: string;
	/** Set when the file could not hold all of it: the bytes it kept from the start and from the end. */
	fileKept?: KeptParts;
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
	/** The output outgrew the limits: it goes to a file from then on (when one could be made). */
	private spilled = false;
	private file?: CappedOutputFile;
	private readonly maxFileBytes: number;

	constructor(limits: CollectorLimits = {}) {
		this.maxLines = limits.maxLines ?? DEFAULT_MAX_LINES;
		this.maxBytes = limits.maxBytes ?? DEFAULT_MAX_BYTES;
		this.maxFileBytes = limits.maxFileBytes ?? MAX_OUTPUT_FILE_BYTES;
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

		if (!this.spilled) {
			for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) this.newlines++;
			if (this.totalBytes <= this.maxBytes && this.newlines <= this.maxLines) return true;
			// spill() writes every chunk kept so far, this one included.
			const accepted = this.spill();
			this.dropOldChunks();
			return accepted;
		}
		this.dropOldChunks();
		return this.file ? this.file.write(chunk) : true;
	}

	/** Resolves when the temporary file can take more data. */
	drained(): Promise<void> {
		return this.file ? this.file.drained() : Promise.resolve();
	}

	/** The tail so far, cut to the limits (for live updates and the final result). */
	tail(): TruncationResult {
		let text = stripCommandOutput(Buffer.concat(this.chunks).toString("utf8"));
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
		return this.file && !this.file.error ? this.file.path : undefined;
	}

	/** Completes the temporary file; keeps it only if the returned output was actually cut. */
	async finish(): Promise<CollectedOutput> {
		const truncation = this.tail();
		const fileKept = await this.file?.finish(this.totalBytes);
		let fullOutputPath = this.spillPath;
		if (this.file && !fullOutputPath) await fs.promises.rm(this.file.path, { force: true });
		if (fullOutputPath && !truncation.truncated) {
			await fs.promises.rm(fullOutputPath, { force: true });
			fullOutputPath = undefined;
		}
		return { truncation, totalBytes: this.totalBytes, ...(fullOutputPath ? { fullOutputPath, ...(fileKept ? { fileKept } : {}) } : {}) };
	}

	/** Starts the file with every chunk kept so far; false when the caller should wait for drained(). */
	private spill(): boolean {
		this.spilled = true;
		try {
			const name = `loom-bash-${Date.now()}-${randomBytes(4).toString("hex")}.log`;
			this.file = new CappedOutputFile(path.join(outputFolder(), name), this.maxFileBytes);
		} catch {
			// No temporary folder: the model still gets the tail; it just cannot be pointed at a full copy.
			return true;
		}
		let accepted = true;
		for (const chunk of this.chunks) accepted = this.file.write(chunk) && accepted;
		return accepted;
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

/** The output as the model reads it: the tail, and when it was cut, a note saying how much and where the rest is. */
export function formatCollectedOutput(collected: CollectedOutput): string {
	const { truncation, totalBytes, fullOutputPath } = collected;
	const text = truncation.content.length > 0 ? truncation.content : "(no output)";
	if (!truncation.truncated) return text;
	const kept = collected.fileKept;
	const where = !fullOutputPath
		? "The full output could not be saved"
		: kept
			? `Output file (its first ${formatSize(kept.head)} and last ${formatSize(kept.tail)}; ${formatSize(totalBytes - kept.head - kept.tail)} in between dropped): ${fullOutputPath}`
			: `Full output: ${fullOutputPath}`;
	const shown = truncation.lastLinePartial
		? `the last ${formatSize(truncation.outputBytes)} of its final line`
		: `the last ${truncation.outputLines} lines (${formatSize(truncation.outputBytes)})`;
	return `${text}\n\n[Output cut: showing ${shown} of ${formatSize(totalBytes)}. ${where}]`;
}
