// Tells images and other binary files from text by their first bytes, never by extension.

export type ImageMimeType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** Images larger than this are refused: providers reject them and they would flood the context. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** How many leading bytes the checks below need. */
export const SNIFF_BYTES = 8192;

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
	if (bytes.length < at + signature.length) return false;
	return signature.every((value, i) => bytes[at + i] === value);
}

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

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
