import chalk from "chalk";
import { stripVTControlCharacters as strip } from "node:util";
import stringWidth from "string-width";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { columnWidths } from "../../../src/tui/text/markdown-table.js";
import { renderMarkdown } from "../../../src/tui/text/markdown.js";

const level = chalk.level;
beforeAll(() => {
	chalk.level = 1;
});
afterAll(() => {
	chalk.level = level;
});

const TABLE = [
	"| Option | Meaning | Default |",
	"|:--|:--|--:|",
	"| `--model` | The model to use for every request in this session, as provider/id or a bare id | claude-sonnet |",
	"| `-r` | Pick a saved session to continue from a list | off |",
].join("\n");

describe("markdown tables", () => {
	it("draw a full grid at their natural width when it fits", () => {
		const rows = strip(renderMarkdown(TABLE, 200)).split("\n");
		expect(rows[0]).toMatch(/^┌─+┬─+┬─+┐$/);
		expect(rows[1]).toMatch(/^│ Option\s+│ Meaning\s+│\s+Default │$/);
		expect(rows[2]).toMatch(/^├─+┼─+┼─+┤$/);
		expect(rows.at(-1)).toMatch(/^└─+┴─+┴─+┘$/);
		expect(rows).toHaveLength(7);
		expect(new Set(rows.map((row) => stringWidth(row))).size).toBe(1);
	});

	it("fit a narrow width by wrapping cells, every row the same width and none wider", () => {
		for (const width of [40, 50, 60, 80]) {
			const rows = strip(renderMarkdown(TABLE, width)).split("\n");
			for (const row of rows) expect(stringWidth(row), `${width}: ${row}`).toBeLessThanOrEqual(width);
			expect(new Set(rows.map((row) => stringWidth(row))).size).toBe(1);
			// Nothing is lost: every word of every cell is still there, whole where the longest words fit.
			const text = rows.join(" ");
			if (width >= 50) for (const word of ["provider/id", "session,", "continue", "claude-sonnet", "--model"]) expect(text).toContain(word);
		}
		const narrow = strip(renderMarkdown(TABLE, 50)).split("\n");
		expect(narrow.length).toBeGreaterThan(7);
		// A wrapped cell keeps its column: its continuation rows still start and end with bars.
		for (const row of narrow) expect(row).toMatch(/^[│├┌└].*[│┤┐┘]$/);
	});

	it("never overflow the width nor cut a wide character, however many columns: a tighter grid, else one record per row", () => {
		const names = Array.from("東京都区部大阪府市町村県道北海九州");
		const cells = names.map((name, i) => `${name}${names[(i + 1) % names.length]}`);
		const wide = [`| ${names.join(" | ")} |`, `|${names.map(() => "---").join("|")}|`, `| ${cells.join(" | ")} |`].join("\n");
		const manyWords = [
			"| a | b | c | d | e | f | g | h | i | j | k | l |",
			"|---|---|---|---|---|---|---|---|---|---|---|---|",
			"| one | two | three | four | five | six | seven | eight | nine | ten | elf | zwölf |",
		].join("\n");
		for (const table of [wide, manyWords, TABLE]) {
			for (const width of [30, 40, 60]) {
				const rows = strip(renderMarkdown(table, width)).split("\n");
				for (const row of rows) expect(stringWidth(row), `${width}: ${row}`).toBeLessThanOrEqual(width);
				// Every character of every cell is still there: none was cut in two.
				const shown = rows.join("");
				const cellText = table.split("\n").filter((_, line) => line !== 1).join("");
				for (const char of Array.from(cellText.replace(/[|\s`]/g, ""))) expect(shown, `${width}: ${char}`).toContain(char);
			}
		}
		// 60 columns: twelve short columns stay a grid, their words whole, without the padding inside the cells.
		const grid = strip(renderMarkdown(manyWords, 60)).split("\n");
		expect(grid[3]).toBe("│one│two│three│four│five│six│seven│eight│nine│ten│elf│zwölf│");
		// Seventeen columns of wide characters do not fit as a grid at 60: each row becomes a record, a cell a line.
		const records = strip(renderMarkdown(wide, 60)).split("\n");
		expect(records).toContain("東: 東京");
		expect(records).toContain("州: 州東");
		expect(records[0]).toMatch(/^─+$/);
	});

	it("keep the columns' alignment (right-aligned numbers)", () => {
		const rows = strip(renderMarkdown("| name | n |\n|---|--:|\n| a | 1 |\n| bbb | 22 |", 80)).split("\n");
		expect(rows[3]).toBe("│ a    │  1 │");
		expect(rows[5]).toBe("│ bbb  │ 22 │");
	});

	it("close a cell's styles before the grid, so colours do not run into the bars", () => {
		const out = renderMarkdown("| a | b |\n|---|---|\n| **bold text that wraps** | `code` |", 24);
		let bars = 0;
		for (const row of out.split("\n")) {
			for (let at = row.indexOf("│"); at !== -1; at = row.indexOf("│", at + 1)) {
				const before = row.slice(0, at);
				const opened = Math.max(before.lastIndexOf("\u001b[1m"), before.lastIndexOf("\u001b[33m"));
				const closed = Math.max(before.lastIndexOf("\u001b[0m"), before.lastIndexOf("\u001b[22m"), before.lastIndexOf("\u001b[39m"));
				expect(opened, row).toBeLessThan(closed === -1 ? 0 : closed);
				bars++;
			}
		}
		expect(bars).toBeGreaterThan(6);
	});

	it("count wide characters as two columns", () => {
		const rows = strip(renderMarkdown("| 名前 | x |\n|---|---|\n| 東京都 | y |", 80)).split("\n");
		expect(new Set(rows.map((row) => stringWidth(row))).size).toBe(1);
	});

	it("share the room: natural widths when they fit, else no column below its longest word while that fits", () => {
		expect(columnWidths([5, 10], [5, 4], 20)).toEqual([5, 10]);
		const widths = columnWidths([6, 80, 13], [7, 11, 13], 40);
		expect(widths.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(40);
		expect(widths[0]).toBe(6);
		expect(widths[2]).toBe(13);
		const tiny = columnWidths([30, 30, 30], [30, 30, 30], 9);
		expect(tiny.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(9);
		for (const width of tiny) expect(width).toBeGreaterThanOrEqual(1);
	});
});
