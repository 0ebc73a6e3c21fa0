import chalk from "chalk";
import stringWidth from "string-width";
import { stripVTControlCharacters as strip } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastRows, NARROW, truncateRow, wrapRows } from "../../../src/tui/text/wrap.js";

const level = chalk.level;
beforeAll(() => {
	chalk.level = 1;
});
afterAll(() => {
	chalk.level = level;
});

describe("wrapRows", () => {
	it("breaks at spaces when it can, mid-word when it must, never past the width", () => {
		expect(wrapRows("the quick brown fox", 10).map(strip)).toEqual(["the quick ", "brown fox"]);
		expect(wrapRows("abcdefghijkl", 5).map(strip)).toEqual(["abcde", "fghij", "kl"]);
		expect(wrapRows("a\n\nb", 5).map(strip)).toEqual(["a", "", "b"]);
	});

	it("keeps every character and counts wide characters as two columns", () => {
		const text = "日本語のテキストと english words mixed together 😀 end";
		const rows = wrapRows(text, 7);
		expect(rows.every((row) => stringWidth(strip(row)) <= 7)).toBe(true);
		expect(rows.map(strip).join("").replace(/\s/g, "")).toBe(text.replace(/\s/g, ""));
	});

	it("re-opens the styles active at a break on the next row", () => {
		const rows = wrapRows(chalk.red("red words that wrap around"), 10);
		expect(rows.length).toBeGreaterThan(1);
		for (const row of rows) expect(row.startsWith("\u001b[31m")).toBe(true);
	});

	it("keeps a line that fits as it is, carrying a style it leaves open to the next line", () => {
		expect(wrapRows("\u001b[31mred\nstill red\u001b[39m\nplain", 20)).toEqual(["\u001b[31mred", "\u001b[31mstill red\u001b[39m", "plain"]);
		expect(wrapRows("\u001b[1mbold and long enough to wrap", 10).map(strip)).toEqual(["bold and ", "long ", "enough to ", "wrap"]);
		// A wide character takes two columns: "日本語" is 6 columns wide.
		expect(wrapRows("日本語", 5).map(strip)).toEqual(["日本", "語"]);
	});

	it("counts the characters it takes as one column wide exactly as string-width does", () => {
		let checked = 0;
		for (let code = 0; code <= 0xffff; code++) {
			const char = String.fromCharCode(code);
			if (code >= 0xd800 && code <= 0xdfff) continue;
			if (!NARROW.test(char)) continue;
			expect(stringWidth(char), `U+${code.toString(16)}`).toBe(1);
			checked++;
		}
		expect(checked).toBeGreaterThan(1000);
		expect(wrapRows("• one — “two” → three │", 40)).toEqual(["• one — “two” → three │"]);
	});

	it("is fast on a long styled paragraph (no quadratic behaviour)", () => {
		const paragraph = `${"word ".repeat(2000)}${chalk.bold("bold ").repeat(2000)}`;
		const started = performance.now();
		const rows = wrapRows(paragraph, 80);
		const elapsed = performance.now() - started;
		expect(rows.every((row) => stringWidth(strip(row)) <= 80)).toBe(true);
		// Generous: the point is "not seconds", on any machine.
		expect(elapsed).toBeLessThan(500);
	});
});

describe("lastRows", () => {
	it("returns only the last rows and counts what it left out", () => {
		const text = "one\ntwo\nthree four five six";
		const result = lastRows(text, 10, 2);
		expect(result.rows.map(strip)).toEqual(["three four", "five six"]);
		expect(result.hidden).toBe(2);
		expect(lastRows(text, 10, 10).rows.map(strip)).toEqual(["one", "two", "three four", "five six"]);
	});
});

describe("truncateRow", () => {
	it("keeps a row that fits, and cuts a longer one to the width ending with an ellipsis", () => {
		expect(truncateRow("short", 10)).toBe("short");
		expect(strip(truncateRow("a much longer row of text", 10))).toBe("a much lo…");
		expect(stringWidth(strip(truncateRow("日本語のテキスト", 7)))).toBeLessThanOrEqual(7);
	});

	it("keeps the styles up to the cut and closes them after it", () => {
		const row = truncateRow(`${chalk.green("✓")} ${chalk.bold("bash")} ${"x".repeat(50)}`, 12);
		expect(strip(row)).toBe("✓ bash xxxx…");
		expect(row).toContain("\u001b[32m");
		expect(row.endsWith("\u001b[0m")).toBe(true);
	});
});
