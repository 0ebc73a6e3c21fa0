// Reads a window of lines from a text file in one streaming pass, counting every line but keeping only the
// window, so a huge file costs time, not memory.
import { read as readCallback } from "node:fs";
import { promisify } from "node:util";
import { StringDecoder } from "node:string_decoder";

const read = promisify(readCallback);

export interface LineWindow {
	/** Lines from the requested start, without line endings; the last one may be cut (see lastLineCut). */
	lines: string[];
	/** Lines in the whole file; a final newline does not start another line. */
	totalLines: number;
	/** Full UTF-8 size of the first line in the window (to explain a line too long to show). */
	firstLineBytes: number;
	/** The last kept line was cut because the window went over byteBudget. */
	lastLineCut: boolean;
}

/** Bytes read from the file at a time. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Collects up to maxLines lines starting at startIndex (0-based) from an open file, read to its end (the caller
 * opens, checks and closes it), and stops collecting once more than byteBudget bytes are kept: the caller's limit
 * check needs only to see that the budget was exceeded.
 */
export function readLineWindow(fd: number, startIndex: number, maxLines: number, byteBudget: number, signal?: AbortSignal): Promise<LineWindow> {
	return lineWindow(chunksOf(fd), startIndex, maxLines, byteBudget, signal);
}

/**
 * An open file to its end, a chunk at a time; no read is left running when the caller stops early. Not bounded by
 * the size fstat gave: a file under /proc says 0 and holds text, a log may grow while it is read.
 */
async function* chunksOf(fd: number): AsyncGenerator<Buffer> {
	for (let position = 0; ; ) {
		const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
		const { bytesRead } = await read(fd, buffer, 0, buffer.length, position);
		if (bytesRead === 0) return;
		position += bytesRead;
		yield buffer.subarray(0, bytesRead);
	}
}

/** readLineWindow over a text already in memory (a file's content as an editor holds it). */
export function textLineWindow(text: string, startIndex: number, maxLines: number, byteBudget: number): Promise<LineWindow> {
	return lineWindow([Buffer.from(text, "utf8")], startIndex, maxLines, byteBudget);
}

async function lineWindow(
	chunks: AsyncIterable<Buffer> | Iterable<Buffer>,
	startIndex: number,
	maxLines: number,
	byteBudget: number,
	signal?: AbortSignal,
): Promise<LineWindow> {
	const decoder = new StringDecoder("utf8");
	const lines: string[] = [];
	let lineIndex = 0;
	let newlines = 0;
	let current = "";
	let currentBytes = 0;
	let currentLength = 0;
	let keptBytes = 0;
	let collecting = startIndex === 0;
	let done = false;
	let firstLineBytes = 0;
	let lastLineCut = false;
	let sawAnything = false;

	const finishLine = (): void => {
		if (collecting && !done) {
			let text = current.endsWith("\r") ? current.slice(0, -1) : current;
			if (lineIndex === 0 && text.startsWith("\uFEFF")) text = text.slice(1);
			if (lines.length === 0) firstLineBytes = currentBytes;
			lines.push(text);
			keptBytes += currentBytes + 1;
			if (current.length < currentLength) lastLineCut = true;
			if (lines.length >= maxLines || keptBytes > byteBudget) done = true;
		}
		current = "";
		currentBytes = 0;
		currentLength = 0;
		lineIndex++;
		collecting = lineIndex >= startIndex;
	};

	const addSegment = (segment: string): void => {
		if (segment.length === 0) return;
		currentLength += segment.length;
		if (!collecting || done) return;
		const bytes = Buffer.byteLength(segment, "utf8");
		// Keep a line only up to the budget: a single giant line must not be held whole.
		if (keptBytes + currentBytes <= byteBudget) current += segment;
		currentBytes += bytes;
	};

	for await (const chunk of chunks) {
		// Counting the lines of a huge file takes seconds: an abort must not wait for the end of it.
		if (signal?.aborted) throw new Error("Read aborted.");
		if (chunk.length > 0) sawAnything = true;
		const text = decoder.write(chunk);
		let from = 0;
		for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", from)) {
			addSegment(text.slice(from, at));
			finishLine();
			newlines++;
			from = at + 1;
		}
		addSegment(text.slice(from));
	}
	addSegment(decoder.end());
	const trailingPartial = currentLength > 0;
	if (trailingPartial) finishLine();

	return {
		lines,
		totalLines: sawAnything ? newlines + (trailingPartial ? 1 : 0) : 0,
		firstLineBytes,
		lastLineCut,
	};
}
