// Loads a session file by streaming it line by line, so a 100 MB file never sits in memory as one string.
import { closeSync, createReadStream } from "node:fs";
import { CheckedReadError, openRegularFile, readAt, formatSize } from "../../lib/index.js";
import { dropMalformedParts } from "./conversation-repair.js";
import { ENTRY_TYPES, type SessionEntry, SessionFileError, type SessionHeader, parseHeader } from "./session-entries.js";

/** A header line is a few hundred bytes; a file whose first line does not end within this is not a session. */
const HEADER_BYTES = 16 * 1024;
/** Far above a long session (100 MB loads in about a second); a bigger file would exhaust memory as entries. */
const MAX_SESSION_BYTES = 512 * 1024 * 1024;
/** One entry (a message with a few large images) stays far below this; a longer line is skipped unread. */
const MAX_LINE_CHARS = 128 * 1024 * 1024;
/** Stands for a line over MAX_LINE_CHARS, which is dropped as it streams instead of gathered. */
const OVERLONG = Symbol("overlong line");

export interface LoadedSession {
	file: string;
	header: SessionHeader;
	entries: SessionEntry[];
	/** Lines that could not be used (a torn last line after a crash, a damaged line); each was skipped. */
	warnings: string[];
	/** Whether the file's last byte is a newline (or it is empty): false after a torn write. */
	endsWithNewline: boolean;
}

/** A file that passed openSessionFile's checks, open for readSessionFile, which closes it; or close() it unread. */
export interface CheckedSessionFile {
	file: string;
	fd: number;
	close(): void;
}

/**
 * Checks the file before streaming it: a regular file (a FIFO or a device is refused without blocking), whose
 * first bytes are a loom header (judged from HEADER_BYTES at most), and no larger than MAX_SESSION_BYTES.
 * Throws SessionFileError otherwise; reads only its first bytes.
 */
export function openSessionFile(file: string): CheckedSessionFile {
	let opened: ReturnType<typeof openRegularFile>;
	try {
		opened = openRegularFile(file);
	} catch (error) {
		if (!(error instanceof CheckedReadError)) throw error;
		if (error.code === "ENOENT") throw new SessionFileError(`No session file at ${file}.`);
		if (error.code === "EISDIR") throw new SessionFileError(`${file} is a directory, not a session file.`);
		throw new SessionFileError(error.message);
	}
	const { fd, stat } = opened;
	try {
		const head = readAt(fd, 0, Math.min(HEADER_BYTES, stat.size));
		if (head.length === 0) throw new SessionFileError(`${file} is not a loom session file: it is empty.`);
		const end = head.indexOf(0x0a);
		if (end === -1 && head.length < stat.size) {
			throw new SessionFileError(`${file} is not a loom session file: its first line is not a {"type":"session",...} header.`);
		}
		parseHeader(head.subarray(0, end === -1 ? head.length : end).toString("utf8"), file);
		if (stat.size > MAX_SESSION_BYTES) {
			throw new SessionFileError(
				`${file} is ${formatSize(stat.size)}, over the ${formatSize(MAX_SESSION_BYTES)} loom opens. Start a new session (its earlier messages cannot be loaded).`,
			);
		}
		return { file, fd, close: () => closeSync(fd) };
	} catch (error) {
		closeSync(fd);
		throw error;
	}
}

/**
 * Reads a session file. Tolerant: unusable lines are skipped with a warning and the rest loads.
 * Strict about identity: a file whose first line is not a loom header is rejected with SessionFileError,
 * after reading only its first bytes. Never writes to the file.
 */
export async function loadSessionFile(file: string): Promise<LoadedSession> {
	return readSessionFile(openSessionFile(file));
}

/** loadSessionFile for a file openSessionFile opened; reads from its first byte and closes it. */
export async function readSessionFile({ file, fd }: CheckedSessionFile): Promise<LoadedSession> {
	// Bounded even if the file grows while it is read.
	const stream = createReadStream(file, { fd, start: 0, end: MAX_SESSION_BYTES - 1, encoding: "utf8", highWaterMark: 1 << 20 });
	let header: SessionHeader | undefined;
	const entries: SessionEntry[] = [];
	// Failures are only judged at the end: a bad line that turns out to be the last one is a torn write, not damage.
	const badLines: { line: number; reason: string }[] = [];
	const repaired: { line: number; parts: number }[] = [];
	let lineNumber = 0;
	const ending = { newline: true };
	try {
		for await (const line of streamLines(stream, ending)) {
			lineNumber++;
			if (header === undefined) {
				header = parseHeader(line === OVERLONG ? "" : line, file);
				continue;
			}
			if (line === OVERLONG) {
				badLines.push({ line: lineNumber, reason: `is longer than ${formatSize(MAX_LINE_CHARS)}` });
				continue;
			}
			if (line.trim() === "") continue;
			const entry = parseEntry(line);
			if (typeof entry === "string") badLines.push({ line: lineNumber, reason: entry });
			else {
				entries.push(entry.entry);
				if (entry.skippedParts > 0) repaired.push({ line: lineNumber, parts: entry.skippedParts });
			}
		}
	} catch (error) {
		if (error instanceof SessionFileError) throw error;
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT") throw new SessionFileError(`No session file at ${file}.`);
		if (code === "EISDIR") throw new SessionFileError(`${file} is a directory, not a session file.`);
		throw new SessionFileError(`Cannot read session file ${file}: ${(error as Error).message}`);
	} finally {
		stream.destroy();
	}
	if (header === undefined) throw new SessionFileError(`${file} is not a loom session file: it is empty.`);
	const warnings = badLines.map(({ line, reason }) =>
		line === lineNumber
			? `${file}: the last line (${line}) is incomplete, probably cut off by a crash; it was skipped and the rest loaded.`
			: `${file}: line ${line} ${reason}; it was skipped.`,
	);
	for (const { line, parts } of repaired) {
		warnings.push(
			`${file}: line ${line}: ${parts} malformed content ${parts === 1 ? "part (not a well-formed part of its message) was" : "parts (not well-formed parts of their message) were"} skipped; the rest of the message loaded.`,
		);
	}
	return { file, header, entries, warnings, endsWithNewline: ending.newline };
}

/** The entry on a line (its message's malformed content parts left out, counted), or a reason why the line is unusable. */
function parseEntry(line: string): { entry: SessionEntry; skippedParts: number } | string {
	let value: any;
	try {
		value = JSON.parse(line);
	} catch {
		return "is not valid JSON";
	}
	if (!value || typeof value !== "object" || typeof value.id !== "string") return "is not a session entry";
	if (!ENTRY_TYPES.has(value.type)) return `has an unknown entry type ${JSON.stringify(value.type)}`;
	if (value.type === "message" && (!value.message || typeof value.message.role !== "string")) {
		return "is a message entry without a message";
	}
	if (value.type === "todo" && !Array.isArray(value.items)) return "is a todo entry without items";
	if (value.type === "plan" && typeof value.plan !== "string") return "is a plan entry without a plan";
	if (value.type !== "message") return { entry: value as SessionEntry, skippedParts: 0 };
	const { message, skipped } = dropMalformedParts(value.message);
	return { entry: (skipped === 0 ? value : { ...value, message }) as SessionEntry, skippedParts: skipped };
}

/**
 * The lines of a text stream, without their "\n" (a final line without one included); a line over
 * MAX_LINE_CHARS comes as OVERLONG. Once the stream is read, `ending.newline` tells whether it ended with "\n"
 * (or was empty). Hand-rolled rather than node:readline, which costs about as much again as JSON-parsing every
 * line of a large session.
 */
async function* streamLines(stream: AsyncIterable<string>, ending: { newline: boolean }): AsyncGenerator<string | typeof OVERLONG> {
	let pending: string[] = [];
	let pendingChars = 0;
	let overlong = false;
	for await (const chunk of stream) {
		let start = 0;
		for (let end = chunk.indexOf("\n"); end !== -1; end = chunk.indexOf("\n", start)) {
			const piece = chunk.slice(start, end);
			if (overlong || pendingChars + piece.length > MAX_LINE_CHARS) yield OVERLONG;
			else {
				const line = pending.length > 0 ? pending.join("") + piece : piece;
				yield line.endsWith("\r") ? line.slice(0, -1) : line;
			}
			pending = [];
			pendingChars = 0;
			overlong = false;
			start = end + 1;
		}
		// A line longer than a chunk is gathered in pieces, so it is joined once, not re-copied per chunk.
		if (start < chunk.length && !overlong) {
			pending.push(chunk.slice(start));
			pendingChars += chunk.length - start;
			if (pendingChars > MAX_LINE_CHARS) {
				overlong = true;
				pending = [];
			}
		}
	}
	ending.newline = !overlong && pending.length === 0;
	if (overlong) yield OVERLONG;
	else if (pending.length > 0) yield pending.join("");
}
