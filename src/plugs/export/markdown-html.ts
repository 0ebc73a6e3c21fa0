// Markdown from the model (or the user) as HTML that cannot run or fetch anything: raw HTML is shown as text,
// links go only to web and mail addresses, images are named instead of loaded.
import { Marked, type Tokens } from "marked";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
/** C0 controls other than tab, newline and carriage return, and DEL: not valid in an HTML page. */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Text made safe to put between tags or in an attribute value. */
export function escapeHtml(text: string): string {
	return text.replace(CONTROLS, "").replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

const SAFE_LINK = /^(https?:|mailto:)/i;

const marked = new Marked({
	gfm: true,
	breaks: false,
	renderer: {
		// Raw HTML in markdown is shown as the text it is, never as markup.
		html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
		link(token: Tokens.Link) {
			const label = this.parser.parseInline(token.tokens);
			if (!SAFE_LINK.test(token.href.trim())) return `${label} <span class="href">(${escapeHtml(token.href)})</span>`;
			const title = token.title ? ` title="${escapeHtml(token.title)}"` : "";
			return `<a href="${escapeHtml(token.href.trim())}"${title} rel="noreferrer noopener">${label}</a>`;
		},
		// Loading an image would reach the network: the page names it instead.
		image: (token: Tokens.Image) => `<span class="image">[image: ${escapeHtml(token.text || token.href)}${token.text ? ` — ${escapeHtml(token.href)}` : ""}]</span>`,
	},
});

/** The markdown as HTML (block level). */
export function markdownToHtml(text: string): string {
	return marked.parse(text.replace(CONTROLS, ""), { async: false }) as string;
}
