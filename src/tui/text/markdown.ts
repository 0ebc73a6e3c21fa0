// Terminal markdown: marked's lexer for the structure, chalk for styles, highlight.js for fenced code.
// Returns an ANSI string; wrapping is left to the caller (wrapRows).
// highlight.js with its languages is most of the screen's code, and the first frame needs none of it: it is
// loaded by loadHighlighter(), and code rendered before that is left plain.
import chalk from "chalk";
import { type Token, type Tokens, lexer } from "marked";
import { drawTable } from "./markdown-table.js";

type Highlighter = typeof import("./highlight.js");

let highlighter: Highlighter | undefined;
let loading: Promise<void> | undefined;
let settled = false;

/** Loads the syntax highlighter once; fenced code is coloured from then on. Never rejects. */
export function loadHighlighter(): Promise<void> {
	loading ??= import("./highlight.js").then(
		(loaded) => {
			highlighter = loaded;
			settled = true;
		},
		() => {
			// Without it code is shown plain, which is still correct.
			settled = true;
		},
	);
	return loading;
}

/** A fence with a language: text the highlighter would colour. */
const FENCE_WITH_LANGUAGE = /^ {0,3}(?:`{3,}|~{3,})[ \t]*[^\s`]/m;

/** Whether rendering `text` now could differ from rendering it once the highlighter is loaded. */
export function awaitsHighlighter(text: string): boolean {
	return !settled && FENCE_WITH_LANGUAGE.test(text);
}


const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };

function decodeEntities(text: string): string {
	return text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity);
}

function renderInline(tokens: Token[] | undefined): string {
	if (!tokens) return "";
	return tokens.map(renderInlineToken).join("");
}

function renderInlineToken(token: Token): string {
	switch (token.type) {
		case "text": {
			const text = token as Tokens.Text;
			return text.tokens ? renderInline(text.tokens) : decodeEntities(text.text);
		}
		case "escape":
			return decodeEntities((token as Tokens.Escape).text);
		case "strong":
			return chalk.bold(renderInline((token as Tokens.Strong).tokens));
		case "em":
			return chalk.italic(renderInline((token as Tokens.Em).tokens));
		case "del":
			return chalk.strikethrough(renderInline((token as Tokens.Del).tokens));
		case "codespan":
			return chalk.yellow(decodeEntities((token as Tokens.Codespan).text));
		case "br":
			return "\n";
		case "link": {
			const link = token as Tokens.Link;
			const label = renderInline(link.tokens);
			const shown = chalk.underline.blue(label);
			return link.autolink || link.text === link.href ? shown : `${shown}${chalk.dim(` (${link.href})`)}`;
		}
		case "image": {
			const image = token as Tokens.Image;
			return chalk.dim(`[image: ${image.text || image.href}]`);
		}
		case "checkbox":
			return (token as Tokens.Checkbox).checked ? "[x] " : "[ ] ";
		case "html":
			return chalk.dim((token as Tokens.HTML).text);
		default:
			return "raw" in token && typeof token.raw === "string" ? token.raw : "";
	}
}

export function highlightCode(code: string, lang: string | undefined): string {
	const language = lang?.trim().split(/\s+/)[0];
	if (!language || !highlighter?.supportsLanguage(language)) return code;
	try {
		return highlighter.highlight(code, language);
	} catch {
		return code;
	}
}

function renderCode(token: Tokens.Code): string {
	const body = highlightCode(token.text, token.lang);
	if (token.codeBlockStyle === "indented") return body.replace(/^/gm, "    ");
	const fence = chalk.dim(`\`\`\`${token.lang ?? ""}`);
	return `${fence}\n${body}\n${chalk.dim("```")}`;
}

function indent(text: string, first: string, rest: string): string {
	return text
		.split("\n")
		.map((line, index) => (index === 0 ? first : rest) + line)
		.join("\n");
}

function renderList(list: Tokens.List, width: number): string {
	const start = typeof list.start === "number" ? list.start : 1;
	const items = list.items.map((item, index) => {
		const marker = list.ordered ? `${start + index}. ` : "• ";
		const box = item.task ? (item.checked ? "[x] " : "[ ] ") : "";
		const tokens = item.tokens.filter((token) => token.type !== "checkbox");
		const body = box + renderBlocks(tokens, width - marker.length, item.loose);
		return indent(body, chalk.cyan(marker), " ".repeat(marker.length));
	});
	return items.join(list.loose ? "\n\n" : "\n");
}

function renderTable(table: Tokens.Table, width: number): string {
	const header = table.header.map((cell) => chalk.bold(renderInline(cell.tokens)));
	const rows = table.rows.map((row) => row.map((cell) => renderInline(cell.tokens)));
	return drawTable(header, rows, table.align, width);
}

function renderBlock(token: Token, width: number): string | undefined {
	switch (token.type) {
		case "space":
		case "def":
			return undefined;
		case "heading": {
			const heading = token as Tokens.Heading;
			const text = renderInline(heading.tokens);
			return heading.depth <= 2 ? chalk.bold.cyan(text) : chalk.bold(text);
		}
		case "paragraph":
			return renderInline((token as Tokens.Paragraph).tokens);
		case "text": {
			const text = token as Tokens.Text;
			return text.tokens ? renderInline(text.tokens) : decodeEntities(text.text);
		}
		case "code":
			return renderCode(token as Tokens.Code);
		case "blockquote": {
			const body = renderBlocks((token as Tokens.Blockquote).tokens, width - 2);
			return indent(chalk.italic(body), chalk.dim("│ "), chalk.dim("│ "));
		}
		case "list":
			return renderList(token as Tokens.List, width);
		case "hr":
			return chalk.dim("─".repeat(Math.max(3, Math.min(width, 60))));
		case "table":
			return renderTable(token as Tokens.Table, width);
		case "html":
			return chalk.dim((token as Tokens.HTML).text.replace(/\n+$/, ""));
		default:
			return "raw" in token && typeof token.raw === "string" ? token.raw.replace(/\n+$/, "") : undefined;
	}
}

/** Blocks keep the source's spacing: a blank line where the source had one, else a plain line break. */
function renderBlocks(tokens: Token[], width: number, loose = true): string {
	let out = "";
	let pendingBlank = false;
	for (const token of tokens) {
		if (token.type === "space") {
			pendingBlank = true;
			continue;
		}
		const rendered = renderBlock(token, width);
		if (rendered === undefined) continue;
		if (out !== "") out += pendingBlank && loose ? "\n\n" : "\n";
		out += rendered;
		pendingBlank = false;
	}
	return out;
}

/** Renders markdown to an ANSI string. `width` only sizes rules and nested indents; nothing is wrapped. */
export function renderMarkdown(text: string, width = 80): string {
	if (text.trim() === "") return "";
	try {
		return renderBlocks(lexer(text, { gfm: true }), width);
	} catch {
		// A lexer failure must never cost the user the answer: show it as written.
		return text;
	}
}

const WARM_UP_SAMPLE =
	"# Heading\n\nSome *emphasis*, **strong**, `code`, ~~gone~~ and a [link](https://example.com).\n\n" +
	"- one\n- two\n  - nested\n\n1. first\n2. second\n\n> quoted\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n---\n\n```ts\nconst code = 1;\n```\n";

/**
 * Loads the highlighter and renders a small sample once. The first markdown rendered in a process is several
 * times slower than the rest (the lexer's patterns are compiled, the code is not optimised yet); the screen
 * calls this after its first frame, while it waits for the first prompt, so the first answer does not pay for it.
 */
export async function warmUpMarkdown(): Promise<void> {
	await loadHighlighter();
	renderMarkdown(WARM_UP_SAMPLE, 80);
}
