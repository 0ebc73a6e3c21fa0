// Reading a file on the user's behalf: its kind is checked before any byte is read, and at most a limit is read.
// A FIFO would block the open or the read forever, a device (/dev/zero) never ends, a sparse file can claim
// gigabytes: each of these ends at once with an error that names the file.
// What was read is told apart by its first bytes, never by its extension: an image, another binary file, or text.
// Text is UTF-8 unless a byte-order mark says UTF-16, the mark itself left out: Windows PowerShell writes UTF-16
// with a mark (little-endian FF FE; big-endian FE FF is rarer); editors on Windows put a mark before UTF-8 (EF BB BF).
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { formatSize } from "./format.js";

/** Why a file was not read: no such file, a directory, not a regular file, over the limit, or another errno. */
export type CheckedReadCode = "ENOENT" | "EISDIR" | "ENOTREG" | "ETOOBIG" | (string & {});

export class CheckedReadError extends Error {
	constructor(
		message: string,
		readonly code: CheckedReadCode,
		/** The file's size, for ETOOBIG. */
		readonly size?: number,
	) {
		super(message);
		this.name = "CheckedReadError";
	}
}

export interface CheckedReadOptions {
	/** More than this is refused (ETOOBIG), by the size the file claims or by what it turns out to hold. */
	maxBytes: number;
	/** How the file is named in messages (default: its path), e.g. "@notes.md". */
	label?: string;
}

/** What a non-regular file is, for messages: "a FIFO (named pipe)", "a character device", ... */
export function specialFileKind(stat: Stats): string {
	if (stat.isFIFO()) return "a FIFO (named pipe)";
	if (stat.isCharacterDevice()) return "a character device";
	if (stat.isBlockDevice()) return "a block device";
	if (stat.isSocket()) return "a socket";
	if (stat.isDirectory()) return "a directory";
	return "not a file";
}

/** An open regular file; the caller closes it. */
export interface RegularFile {
	fd: number;
	stat: Stats;
}

/**
 * Opens a regular file for reading, or throws CheckedReadError. O_NONBLOCK: opening a FIFO without a writer
 * returns at once instead of waiting (it is then refused by its kind); for a regular file the flag changes nothing.
 */
export function openRegularFile(path: string, label = path): RegularFile {
	let fd: number;
	try {
		fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code ?? "EIO";
		if (code === "ENOENT") throw new CheckedReadError(`${label}: no such file (${path}).`, code);
		if (code === "EISDIR") throw new CheckedReadError(`Cannot read ${label}: it is a directory, not a file.`, code);
		throw new CheckedReadError(`Cannot read ${label}: ${(error as Error).message}`, code);
	}
	const stat = fstatSync(fd);
	if (stat.isFile()) return { fd, stat };
	closeSync(fd);
	if (stat.isDirectory()) throw new CheckedReadError(`Cannot read ${label}: it is a directory, not a file.`, "EISDIR");
	throw new CheckedReadError(`${label} is not a regular file (it is ${specialFileKind(stat)}); loom reads only regular files.`, "ENOTREG");
}

/** Up to `maxBytes` from `position` of an open file (fewer at its end). */
export function readAt(fd: number, position: number, maxBytes: number): Buffer {
	const buffer = Buffer.allocUnsafe(maxBytes);
	let filled = 0;
	while (filled < maxBytes) {
		const n = readSync(fd, buffer, filled, maxBytes - filled, position + filled);
		if (n === 0) break;
		filled += n;
	}
	return buffer.subarray(0, filled);
}

function tooBig(label: string, size: number, maxBytes: number): CheckedReadError {
	return new CheckedReadError(`${label} is ${formatSize(size)}, over the ${formatSize(maxBytes)} loom reads from it.`, "ETOOBIG", size);
}

/** The whole of a file opened by openRegularFile if it holds at most `maxBytes`, or CheckedReadError (ETOOBIG). */
export function readOpenFile({ fd, stat }: RegularFile, maxBytes: number, label: string): Buffer {
	if (stat.size > maxBytes) throw tooBig(label, stat.size, maxBytes);
	// One byte more than allowed tells a file that grew past the limit since fstat.
	const bytes = readAt(fd, 0, maxBytes + 1);
	if (bytes.length > maxBytes) throw tooBig(label, Math.max(stat.size, bytes.length), maxBytes);
	return bytes;
}

/** A whole regular file of at most `maxBytes`, or CheckedReadError. */
export function readCheckedFile(path: string, options: CheckedReadOptions): Buffer {
	const label = options.label ?? path;
	const file = openRegularFile(path, label);
	try {
		return readOpenFile(file, options.maxBytes, label);
	} finally {
		closeSync(file.fd);
	}
}

/** readCheckedFile as text: UTF-8, or UTF-16 by its byte-order mark; without the mark (see decodeText). */
export function readCheckedText(path: string, options: CheckedReadOptions): string {
	return decodeText(readCheckedFile(path, options));
}

const UTF16LE_BOM = [0xff, 0xfe] as const;
const UTF16BE_BOM = [0xfe, 0xff] as const;

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
	if (bytes.length < at + signature.length) return false;
	return signature.every((value, i) => bytes[at + i] === value);
}

/** `bytes` as text, by its byte-order mark (UTF-16 either order, or UTF-8), without the mark. Invalid bytes become U+FFFD. */
export function decodeText(bytes: Uint8Array): string {
	// TextDecoder drops the encoding's own mark (ignoreBOM false), and an odd byte at the end becomes one U+FFFD.
	if (startsWith(bytes, UTF16LE_BOM)) return new TextDecoder("utf-16le").decode(bytes);
	if (startsWith(bytes, UTF16BE_BOM)) return new TextDecoder("utf-16be").decode(bytes);
	return withoutBom(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"));
}

/** `text` without a leading byte-order mark. */
export function withoutBom(text: string): string {
	return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export type ImageMimeType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** Images larger than this are refused: providers reject them and they would flood the context. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** How many leading bytes the checks below need. */
export const SNIFF_BYTES = 8192;

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/** An image's type by its signature, never by its extension. */
export function detectImageMimeType(bytes: Uint8Array): ImageMimeType | undefined {
	if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
	if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
	if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
	if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
	return undefined;
}

/** A NUL byte in the first block marks a binary file (the heuristic git and grep use). */
export function looksBinary(bytes: Uint8Array): boolean {
	return bytes.subarray(0, SNIFF_BYTES).includes(0);
}
