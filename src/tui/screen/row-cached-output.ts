// Ink's frame builder, with each row's text kept between frames. Ink draws every frame from scratch: each
// row of text is cut into styled characters, laid into a grid of cells and joined again, even when the row is
// the same as in the frame before (while an answer streams, all its rows but the last are). A row's text
// depends only on the writes that reach that row, so the row is built by Ink's own class once and reused while
// those writes are the same. The bundle puts this in place of Ink's class (rolldown.config.mjs, ink-with-caches).

export type LineTransformer = (line: string, index: number) => string;

/** What Ink's Output class (ink/build/output.js) offers: the writes and clips of one frame, then the frame. */
export interface FrameOutput {
	write(x: number, y: number, text: string, options: { transformers: LineTransformer[] }): void;
	clip(clip: unknown): void;
	unclip(): void;
	get(): { output: string; height: number };
}

export type FrameOutputClass = new (options: { width: number; height: number }) => FrameOutput;

/** Rows kept at most; the cache starts again empty beyond (a long stream keeps making new rows). */
const MAX_CACHED_ROWS = 2000;

/** Text Ink draws as it is, one column a character: printable ASCII. */
const PLAIN = /^[\x20-\x7e]*$/;

/** Separates the parts of a row's key: no terminal text holds this character. */
const SEPARATOR = "\u0000";

interface Write {
	x: number;
	y: number;
	text: string;
	transformers: LineTransformer[];
}

/**
 * A subclass of Ink's Output whose frame is the same text, built row by row from a cache shared by all its
 * frames. A frame with clipping (a box with overflow hidden, which the screen has none of) is built by Ink.
 */
export function rowCachedOutput(Base: FrameOutputClass): FrameOutputClass {
	const rows = new Map<string, string>();

	/** One row as Ink builds it from the given writes (x and the line already transformed), in their order. */
	function buildRow(width: number, parts: readonly { x: number; line: string }[]): string {
		// One write of plain text: Ink's cells hold its characters after x blank ones, and the row is their text
		// without trailing blanks (a line wider than the frame included, as Ink does not cut it).
		const only = parts.length === 1 ? parts[0] : undefined;
		if (only && Number.isInteger(only.x) && only.x >= 0 && PLAIN.test(only.line)) return (" ".repeat(only.x) + only.line).trimEnd();
		const one = new Base({ width, height: 1 });
		for (const part of parts) one.write(part.x, 0, part.line, { transformers: [] });
		return one.get().output;
	}

	return class RowCachedOutput extends Base {
		private readonly width: number;
		private readonly height: number;
		private readonly writes: Write[] = [];
		private clipped = false;

		constructor(options: { width: number; height: number }) {
			super(options);
			this.width = options.width;
			this.height = options.height;
		}

		override write(x: number, y: number, text: string, options: { transformers: LineTransformer[] }): void {
			super.write(x, y, text, options);
			if (text) this.writes.push({ x, y, text, transformers: options.transformers });
		}

		override clip(clip: unknown): void {
			super.clip(clip);
			this.clipped = true;
		}

		override get(): { output: string; height: number } {
			if (this.clipped) return super.get();
			// Which lines reach which row, exactly as Ink places them: a line below the last row (or a write
			// starting above the first) is dropped, and so are the lines after it.
			const parts: { x: number; line: string }[][] = Array.from({ length: this.height }, () => []);
			for (const { x, y, text, transformers } of this.writes) {
				let offsetY = 0;
				for (const [index, source] of text.split("\n").entries()) {
					const row = parts[y + offsetY];
					if (!row) continue;
					let line = source;
					for (const transformer of transformers) line = transformer(line, index);
					row.push({ x, line });
					offsetY++;
				}
			}
			const lines = parts.map((row) => {
				if (row.length === 0) return "";
				const key = `${this.width}${SEPARATOR}${row.map((part) => `${part.x}${SEPARATOR}${part.line}`).join(SEPARATOR)}`;
				let built = rows.get(key);
				if (built === undefined) {
					built = buildRow(this.width, row);
					if (rows.size >= MAX_CACHED_ROWS) rows.clear();
					rows.set(key, built);
				}
				return built;
			});
			return { output: lines.join("\n"), height: this.height };
		}
	};
}
