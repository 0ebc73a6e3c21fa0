// Syntax colours for fenced code: highlight.js finds the tokens, cli-highlight's default theme colours them.
// cli-highlight's own highlight() gets there by parsing highlight.js's HTML with a full HTML5 parser, which
// was most of the cost of printing a long answer; highlight.js's HTML is only nested <span class="…">
// elements and five escaped characters, so a single scan turns it into the same coloured text (only
// cli-highlight's theme is loaded, not its HTML parser).
import { DEFAULT_THEME } from "cli-highlight/dist/theme.js";
import hljs from "highlight.js";

type Style = (text: string) => string;

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'" };
const TOKENS = /<span class="([^"]*)">|<\/span>|[^<]+/g;
const theme = DEFAULT_THEME as Record<string, Style | undefined>;
const plain: Style = (text) => text;

export function supportsLanguage(language: string): boolean {
	return hljs.getLanguage(language) !== undefined;
}

/** The code coloured for the terminal; the text itself is never changed. */
export function highlight(code: string, language: string): string {
	return colorize(hljs.highlight(code, { language, ignoreIllegals: true }).value);
}

/** highlight.js HTML → ANSI, styled exactly as cli-highlight does (outer classes wrap what inner ones styled). */
export function colorize(html: string): string {
	// Each open span collects its content until it closes. Text outside any highlight.js class (at the top,
	// or in a sub-language's span) takes the default style.
	const stack: { style: Style; text: string; token: boolean }[] = [{ style: plain, text: "", token: false }];
	for (const match of html.matchAll(TOKENS)) {
		const token = match[0];
		if (match[1] !== undefined) {
			const name = /hljs-(\w+)/.exec(match[1])?.[1];
			stack.push({ style: name === undefined ? plain : (theme[name] ?? plain), text: "", token: name !== undefined });
		} else if (token === "</span>") {
			if (stack.length === 1) continue;
			const closed = stack.pop()!;
			stack[stack.length - 1]!.text += closed.style(closed.text);
		} else {
			const text = token.includes("&") ? token.replace(/&(?:amp|lt|gt|quot|#x27);/g, (entity) => ENTITIES[entity] ?? entity) : token;
			const top = stack[stack.length - 1]!;
			top.text += top.token ? text : (theme.default ?? plain)(text);
		}
	}
	while (stack.length > 1) {
		const closed = stack.pop()!;
		stack[stack.length - 1]!.text += closed.style(closed.text);
	}
	return stack[0]!.text;
}
