// Output limits shared by read (keeps the head) and bash (keeps the tail). Cuts fall between lines,
// except when a single line is itself over the byte limit.

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;

export interface TruncationLimits {
	maxLines?: number;
	maxBytes?: number;
}

export interface TruncationResult {
	content: string;
	truncated: boolean;
	truncatedBy: "lines" | "bytes" | null;
	totalLines: number;
	totalBytes: number;
	outputLines: number;
	outputBytes: number;
	/** truncateHead: the first line alone is over maxBytes, so nothing is returned. */
	firstLineExceedsLimit: boolean;
	/** truncateTail: the last line alone is over maxBytes; content is the end of that line. */
	lastLinePartial: boolean;
	maxLines: number;
	maxBytes: number;
}

/** Splits into lines; a final newline ends the last line rather than starting an empty one. */
export function splitLines(text: string): string[] {
	if (text.length === 0) return [];
	const lines = text.split("\n");
	if (lines[lines.length - 1] === "") lines.pop();
	return lines;
}

/** How many lines, taken from the start (or the end), fit both limits; joined by "\n". */
function fitLines(lines: string[], maxLines: number, maxBytes: number, fromEnd: boolean) {
	let bytes = 0;
	let count = 0;
	let truncatedBy: TruncationResult["truncatedBy"] = null;
	while (count < lines.length) {
		if (count >= maxLines) {
			truncatedBy = "lines";
			break;
		}
		const line = lines[fromEnd ? lines.length - 1 - count : count]!;
		const size = Buffer.byteLength(line, "utf8") + (count > 0 ? 1 : 0);
		if (bytes + size > maxBytes) {
			truncatedBy = "bytes";
			break;
		}
		bytes += size;
		count++;
	}
	return { count, bytes, truncatedBy };
}

/** Keeps the first lines that fit both limits. */
export function truncateHead(text: string, limits: TruncationLimits = {}): TruncationResult {
	const maxLines = limits.maxLines ?? DEFAULT_MAX_LINES;
	const maxBytes = limits.maxBytes ?? DEFAULT_MAX_BYTES;
	const lines = splitLines(text);
	const totalBytes = Buffer.byteLength(text, "utf8");
	const base = { totalLines: lines.length, totalBytes, maxLines, maxBytes, lastLinePartial: false };

	const { count, bytes, truncatedBy } = fitLines(lines, maxLines, maxBytes, false);
	if (truncatedBy === null) {
		const content = lines.join("\n");
		return { ...base, content, truncated: false, truncatedBy, outputLines: count, outputBytes: bytes, firstLineExceedsLimit: false };
	}
	return {
		...base,
		content: lines.slice(0, count).join("\n"),
		truncated: true,
		truncatedBy,
		outputLines: count,
		outputBytes: bytes,
		firstLineExceedsLimit: count === 0 && truncatedBy === "bytes",
	};
}

/** Keeps the last lines that fit both limits; a last line over maxBytes is cut to its end. */
export function truncateTail(text: string, limits: TruncationLimits = {}): TruncationResult {
	const maxLines = limits.maxLines ?? DEFAULT_MAX_LINES;
	const maxBytes = limits.maxBytes ?? DEFAULT_MAX_BYTES;
	const lines = splitLines(text);
	const totalBytes = Buffer.byteLength(text, "utf8");
	const base = { totalLines: lines.length, totalBytes, maxLines, maxBytes, firstLineExceedsLimit: false };

	const { count, bytes, truncatedBy } = fitLines(lines, maxLines, maxBytes, true);
	if (truncatedBy === null) {
		const content = lines.join("\n");
		return { ...base, content, truncated: false, truncatedBy, outputLines: count, outputBytes: bytes, lastLinePartial: false };
	}
	if (count === 0) {
		const content = lastBytesOf(lines[lines.length - 1] ?? "", maxBytes);
		const outputBytes = Buffer.byteLength(content, "utf8");
		return { ...base, content, truncated: true, truncatedBy, outputLines: 1, outputBytes, lastLinePartial: true };
	}
	return {
		...base,
		content: lines.slice(lines.length - count).join("\n"),
		truncated: true,
		truncatedBy,
		outputLines: count,
		outputBytes: bytes,
		lastLinePartial: false,
	};
}

/** The end of `text`, at most maxBytes of UTF-8, never starting inside a character. */
export function lastBytesOf(text: string, maxBytes: number): string {
	const buffer = Buffer.from(text, "utf8");
	if (buffer.length <= maxBytes) return text;
	let start = buffer.length - maxBytes;
	// Skip UTF-8 continuation bytes (10xxxxxx) so the slice starts on a character.
	while (start < buffer.length && (buffer[start]! & 0xc0) === 0x80) start++;
	return buffer.subarray(start).toString("utf8");
}
