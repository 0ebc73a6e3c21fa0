import chalk from "chalk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stripVTControlCharacters as strip } from "node:util";
import { renderMarkdown } from "../../../src/tui/text/markdown.js";

const level = chalk.level;
beforeAll(() => {
	chalk.level = 1;
});
afterAll(() => {
	chalk.level = level;
});

describe("renderMarkdown", () => {
	it("styles headings, emphasis, inline code and links", () => {
		const out = renderMarkdown("# Title\n\nSome *em*, **bold**, ~~gone~~, `code` and [docs](https://example.com).");
		expect(strip(out)).toBe("Title\n\nSome em, bold, gone, code and docs (https://example.com).");
		expect(out).toContain(chalk.bold.cyan("Title"));
		expect(out).toContain(chalk.italic("em"));
		expect(out).toContain(chalk.bold("bold"));
		expect(out).toContain(chalk.strikethrough("gone"));
		expect(out).toContain(chalk.yellow("code"));
		expect(out).toContain(chalk.underline.blue("docs"));
	});

	it("renders bullet, ordered, nested and task lists", () => {
		const out = strip(renderMarkdown("- one\n- two\n  - nested\n\n3. three\n4. four\n\n- [x] done\n- [ ] todo"));
		expect(out).toBe("• one\n• two\n  • nested\n\n3. three\n4. four\n\n• [x] done\n• [ ] todo");
	});

	it("keeps fenced code verbatim between its fences and colours known languages", () => {
		const code = "const answer = 42;\nfunction f() { return answer; }";
		const out = renderMarkdown(`Intro:\n\n\`\`\`ts\n${code}\n\`\`\``);
		expect(strip(out)).toBe(`Intro:\n\n\`\`\`ts\n${code}\n\`\`\``);
		// cli-highlight colours keywords when the terminal supports colour; it never changes the text.
		expect(strip(out)).toContain("const answer = 42;");
	});

	it("leaves code in an unknown language as written", () => {
		expect(strip(renderMarkdown("```nosuchlang\nx := y\n```"))).toBe("```nosuchlang\nx := y\n```");
	});

	it("renders blockquotes, rules and tables", () => {
		expect(strip(renderMarkdown("> careful\n\n---"))).toMatch(/^│ careful\n\n─{3,}$/);
		const table = strip(renderMarkdown("| name | n |\n|---|--:|\n| a | 1 |\n| bbb | 22 |"));
		expect(table.split("\n")).toEqual([
			"┌──────┬────┐",
			"│ name │  n │",
			"├──────┼────┤",
			"│ a    │  1 │",
			"├──────┼────┤",
			"│ bbb  │ 22 │",
			"└──────┴────┘",
		]);
	});

	it("decodes the common HTML entities and renders an unclosed fence as code", () => {
		expect(strip(renderMarkdown("a &amp; b &lt;c&gt;"))).toBe("a & b <c>");
		expect(strip(renderMarkdown("```py\nprint(1)\n"))).toBe("```py\nprint(1)\n```");
	});

	it("returns an empty string for blank input", () => {
		expect(renderMarkdown("  \n\n")).toBe("");
	});
});
