// Splits a byte stream into lines, each bounded: a line over the limit is reported and skipped to its end, so a
// runaway writer costs no more memory than one line. Only "\n" ends a line (JSON may hold U+2028 unescaped).

export interface LineHandlers {
	line(text: string): void;
	/**
	 * A line longer than the limit was skipped; `chars` is how far it got before it was dropped, `head` its first
	 * HEAD_CHARS characters (enough to tell whose request it was).
	 */
	tooLong(chars: number, head: string): void;
}

/** How much of a skipped line's start is kept for its report. */
export const HEAD_CHARS = 1024;

/** Resolves when the stream ends (or fails: a reader gone is the same as an end). */
export function readLines(stream: NodeJS.ReadableStream, maxChars: number, handlers: LineHandlers): Promise<void> {
	let pieces: string[] = [];
	let length = 0;
	let skipping = false;
	let head = "";

	const take = (piece: string) => {
		if (skipping) return;
		if (head.length < HEAD_CHARS) head += piece.slice(0, HEAD_CHARS - head.length);
		if (length + piece.length > maxChars) {
			skipping = true;
			pieces = [];
			handlers.tooLong(length + piece.length, head);
			return;
		}
		pieces.push(piece);
		length += piece.length;
	};
	const endLine = () => {
		if (!skipping) {
			const text = pieces.join("");
			handlers.line(text.endsWith("\r") ? text.slice(0, -1) : text);
		}
		pieces = [];
		length = 0;
		skipping = false;
		head = "";
	};

	stream.setEncoding("utf8");
	stream.on("data", (chunk: string) => {
		let start = 0;
		for (let end = chunk.indexOf("\n"); end !== -1; end = chunk.indexOf("\n", start)) {
			take(chunk.slice(start, end));
			endLine();
			start = end + 1;
		}
		if (start < chunk.length) take(chunk.slice(start));
	});
	return new Promise((resolve) => {
		const finish = () => {
			// A last line without its newline still counts.
			if (length > 0) endLine();
			resolve();
		};
		stream.once("end", finish);
		stream.once("close", finish);
		stream.once("error", finish);
	});
}
