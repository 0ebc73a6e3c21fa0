import { Chalk } from "chalk";
import { describe, expect, it } from "vitest";
import InkOutput from "../../../node_modules/ink/build/output.js";
import { type FrameOutput, type FrameOutputClass, type LineTransformer, rowCachedOutput } from "../../../src/tui/screen/row-cached-output.js";

type Op = { type: "write"; x: number; y: number; text: string; transformers: LineTransformer[] } | { type: "clip"; clip: { x1?: number; x2?: number; y1?: number; y2?: number } } | { type: "unclip" };

function frame(Output: FrameOutputClass, width: number, height: number, ops: readonly Op[]): string {
	const output: FrameOutput = new Output({ width, height });
	for (const op of ops) {
		if (op.type === "write") output.write(op.x, op.y, op.text, { transformers: op.transformers });
		else if (op.type === "clip") output.clip(op.clip);
		else output.unclip();
	}
	return output.get().output;
}

const Ink = InkOutput as unknown as FrameOutputClass;
/** Colours on whatever the test's terminal: the rows must carry escape sequences. */
const chalk = new Chalk({ level: 3 });

/** Deterministic pseudo-random numbers, so a failure can be replayed. */
function random(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state * 1103515245 + 12345) % 2147483648;
		return state / 2147483648;
	};
}

const WORDS = ["plain", "ascii words", "trailing ", chalk.bold("bold"), chalk.yellow("code"), chalk.cyan.bold("•"), "漢字", "é", "🙂", chalk.dim.italic("dim"), "  ", chalk.underline.blue("link")];

function randomText(next: () => number): string {
	const lines = 1 + Math.floor(next() * 3);
	return Array.from({ length: lines }, () => Array.from({ length: Math.floor(next() * 12) }, () => WORDS[Math.floor(next() * WORDS.length)]).join(" ")).join("\n");
}

describe("rowCachedOutput", () => {
	it("builds the very frames Ink builds, frame after frame, rows reused or not", () => {
		const Cached = rowCachedOutput(Ink);
		const next = random(7);
		const upper: LineTransformer = (line) => line.toUpperCase();
		const numbered: LineTransformer = (line, index) => `${index}:${line}`;
		let previous: Op[] = [];
		for (let n = 0; n < 300; n++) {
			const width = 20 + Math.floor(next() * 30);
			const height = 1 + Math.floor(next() * 8);
			// Half the writes repeat the previous frame's (the cache's case), moved or not.
			const ops: Op[] = [];
			for (let i = 0; i < 1 + Math.floor(next() * 6); i++) {
				const reused = previous.filter((op) => op.type === "write")[i];
				const text = reused && next() < 0.5 ? reused.text : randomText(next);
				const transformers = next() < 0.2 ? [upper] : next() < 0.1 ? [numbered, upper] : [];
				ops.push({ type: "write", x: Math.floor(next() * (width + 4)) - 1, y: Math.floor(next() * (height + 3)) - 1, text, transformers });
			}
			expect(frame(Cached, width, height, ops)).toBe(frame(Ink, width, height, ops));
			previous = ops;
		}
	});

	it("draws rows of plain text as Ink does: after the blank columns of x, without trailing blanks, wider than the frame too", () => {
		const Cached = rowCachedOutput(Ink);
		const texts = ["plain text  ", "", "  indented", "x".repeat(30), "tab\there", "ends with spaces    "];
		for (const text of texts) {
			for (const x of [0, 1, 5, -1]) {
				for (const y of [0, 1, -1]) {
					const ops: Op[] = [{ type: "write", x, y, text: `${text}\n${text}`, transformers: [] }];
					expect(frame(Cached, 20, 3, ops)).toBe(frame(Ink, 20, 3, ops));
				}
			}
		}
	});

	it("leaves a frame with clipping to Ink", () => {
		const Cached = rowCachedOutput(Ink);
		const ops: Op[] = [{ type: "clip", clip: { x1: 2, x2: 6, y1: 0, y2: 1 } }, { type: "write", x: 0, y: 0, text: "abcdefghij\nklmnopqrst", transformers: [] }, { type: "unclip" }, { type: "write", x: 0, y: 2, text: chalk.bold("tail"), transformers: [] }];
		expect(frame(Cached, 12, 3, ops)).toBe(frame(Ink, 12, 3, ops));
	});

	it("builds each distinct styled row once while it stays the same", () => {
		let built = 0;
		class Counting extends Ink {
			override get() {
				built++;
				return super.get();
			}
		}
		const Cached = rowCachedOutput(Counting);
		const rows = [chalk.dim("one"), chalk.bold("two"), chalk.yellow("three")];
		frame(Cached, 10, 3, [{ type: "write", x: 0, y: 0, text: rows.join("\n"), transformers: [] }]);
		expect(built).toBe(3);
		// The stream moved on by a row: only the new row is built.
		frame(Cached, 10, 3, [{ type: "write", x: 0, y: 0, text: [...rows.slice(1), chalk.bold("four")].join("\n"), transformers: [] }]);
		expect(built).toBe(4);
	});
});
