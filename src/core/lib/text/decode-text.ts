// The text of a file loom reads for the user (context files, settings, skills, prompt templates, MCP
// configuration): UTF-8 unless a byte-order mark says UTF-16, the mark itself left out. Windows PowerShell
// writes UTF-16 with a mark (little-endian FF FE; big-endian FE FF is rarer); editors on Windows put a mark
// before UTF-8 (EF BB BF).

const UTF16LE_BOM = [0xff, 0xfe] as const;
const UTF16BE_BOM = [0xfe, 0xff] as const;

function startsWith(bytes: Uint8Array, mark: readonly number[]): boolean {
	return mark.every((byte, index) => bytes[index] === byte);
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
