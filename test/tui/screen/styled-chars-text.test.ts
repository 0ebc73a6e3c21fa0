import * as ansiTokenize from "@alcalzone/ansi-tokenize";
import { Chalk } from "chalk";
import { describe, expect, it } from "vitest";
import { styledCharsText } from "../../../src/tui/screen/styled-chars-text.js";

const chalk = new Chalk({ level: 3 });
const WORDS = ["plain", " ", chalk.bold("bold"), chalk.dim("dim"), chalk.bold.dim("both"), chalk.yellow("code"), chalk.cyan.bold("•"), "漢字", "🙂", chalk.italic.underline("link"), chalk.bgRed.white("alert"), "\u001b]8;;https://example.com\u0007url\u001b]8;;\u0007", chalk.red(`a${chalk.bold("b")}c`)];

function random(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state * 1103515245 + 12345) % 2147483648;
		return state / 2147483648;
	};
}

type Cell = ansiTokenize.StyledChar;

/** A row as Ink's Output lays it: blank cells, then the styled characters of each write from its x. */
function row(next: () => number): Cell[] {
	const width = 1 + Math.floor(next() * 40);
	const cells: Cell[] = Array.from({ length: width }, () => ({ type: "char", value: " ", fullWidth: false, styles: [] }));
	for (let write = 0; write < 1 + Math.floor(next() * 3); write++) {
		const line = Array.from({ length: Math.floor(next() * 8) }, () => WORDS[Math.floor(next() * WORDS.length)]).join(next() < 0.5 ? "" : " ");
		let x = Math.floor(next() * width);
		for (const char of ansiTokenize.styledCharsFromTokens(ansiTokenize.tokenize(line))) {
			cells[x] = char;
			if (char.fullWidth) cells[x + 1] = { type: "char", value: "", fullWidth: false, styles: char.styles };
			x += char.fullWidth ? 2 : 1;
		}
	}
	return cells;
}

describe("styledCharsText", () => {
	it("joins styled cells into the very text @alcalzone/ansi-tokenize's styledCharsToString gives", () => {
		const fast = styledCharsText(ansiTokenize);
		const next = random(11);
		for (let n = 0; n < 2000; n++) {
			const cells = row(next);
			expect(fast(cells)).toBe(ansiTokenize.styledCharsToString(cells));
		}
		expect(fast([])).toBe(ansiTokenize.styledCharsToString([]));
	});
});
