// Loads a session file by streaming it line by line, so a 100 MB file never sits in memory as one string.
import { createReadStream } from "node:fs";
import { ENTRY_TYPES, type SessionEntry, SessionFileError, type SessionHeader, parseHeader } from "./session-entries.js";

export interface LoadedSession {
	file: string;
	header: SessionHeader;
	entries: SessionEntry[];
	/** Lines that could not be used (a torn last line after a crash, a damaged line); each was skipped. */
	warnings: string[];
}

/**
 * Reads a session file. Tolerant: unusable lines are skipped with a warning and the rest loads.
 * Strict about identity: a file whose first line is not a loom header is rejected with SessionFileError.
 * Never writes to the file.
 */
export async function loadSessionFile(file: string): Promise<LoadedSession> {
	const stream = createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 20 });
	let header: SessionHeader | undefined;
	const entries: SessionEntry[] = [];
	// Failures are only judged at the end: a bad line that turns out to be the last one is a torn write, not damage.
	const badLines: { line: number; reason: string }[] = [];
	let lineNumber = 0;
	try {
		for await (const line of streamLines(stream)) {
			lineNumber++;
			if (header === undefined) {
				header = parseHeader(line, file);
				continue;
			}
			if (line.trim() === "") continue;
			const entry = parseEntry(line);
			if (typeof entry === "string") badLines.push({ line: lineNumber, reason: entry });
			else entries.push(entry);
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
	return { file, header, entries, warnings };
}

/** The entry on a line, or a reason why the line is unusable. */
function parseEntry(line: string): SessionEntry | string {
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
	return value as SessionEntry;
}

/**
 * The lines of a text stream, without their "\n" (a final line without one included). Hand-rolled rather than
 * node:readline, which costs about as much again as JSON-parsing every line of a large session.
 */
async function* streamLines(stream: AsyncIterable<string>): AsyncGenerator<string> {
	let pending: string[] = [];
	for await (const chunk of stream) {
		let start = 0;
		for (let end = chunk.indexOf("\n"); end !== -1; end = chunk.indexOf("\n", start)) {
			const piece = chunk.slice(start, end);
			const line = pending.length > 0 ? pending.join("") + piece : piece;
			pending = [];
			yield line.endsWith("\r") ? line.slice(0, -1) : line;
			start = end + 1;
		}
		// A line longer than a chunk is gathered in pieces, so it is joined once, not re-copied per chunk.
		if (start < chunk.length) pending.push(chunk.slice(start));
	}
	if (pending.length > 0) yield pending.join("");
}
