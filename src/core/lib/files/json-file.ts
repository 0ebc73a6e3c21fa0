// JSON files loom keeps beside the user's work. Configuration (settings.json, models.json, mcp.json) is read
// checked and bounded, a missing file meaning none, and a broken one is an error naming the file; each loader
// words its own message. Small state files (trust.json, remembered warnings) are best effort when read and are
// replaced whole when written, so a reader never sees half of one.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { CheckedReadError, readCheckedText, withoutBom } from "../checked-read.js";
import { replaceFileSync } from "./atomic-write.js";

/**
 * A configuration file's text (without a byte-order mark), at most `maxBytes`; undefined when there is no such
 * file. Any other failure (a folder, a FIFO, too large, unreadable) throws an Error whose message names the file.
 */
export function readConfigText(path: string, maxBytes: number): string | undefined {
	try {
		return readCheckedText(path, { maxBytes });
	} catch (error) {
		if (error instanceof CheckedReadError && error.code === "ENOENT") return undefined;
		throw new Error(error instanceof CheckedReadError ? error.message : `Cannot read ${path}: ${(error as Error).message}`);
	}
}

/**
 * The value of JSON text, a leading byte-order mark ignored (some editors write one). Text that is not JSON
 * throws the parser's SyntaxError, whose message says where; the caller names the file.
 */
export function parseJson(text: string): unknown {
	return JSON.parse(withoutBom(text));
}

/** A small state file's value; undefined when it is missing, unreadable, over `maxBytes` or not JSON. */
export function readJsonState(path: string, maxBytes: number): unknown {
	try {
		return JSON.parse(readCheckedText(path, { maxBytes }));
	} catch {
		return undefined;
	}
}

export interface JsonStateWriteOptions {
	/** Permissions of a new file (default: the process's umask decides). */
	mode?: number;
	/** Indentation, as JSON.stringify takes it; none unless given. */
	indent?: string;
}

/**
 * Replaces a state file whole with `value` as one line of JSON (or indented), creating its folder (see
 * replaceFileSync). Throws when that fails; the old file is then untouched.
 */
export function writeJsonState(path: string, value: unknown, options: JsonStateWriteOptions = {}): void {
	mkdirSync(dirname(path), { recursive: true });
	replaceFileSync(path, `${JSON.stringify(value, null, options.indent)}\n`, options.mode === undefined ? {} : { mode: options.mode });
}
