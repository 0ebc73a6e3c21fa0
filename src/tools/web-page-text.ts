// A fetched body as text the model reads: HTML becomes Markdown (Mozilla's Readability picks the article out of a
// DOM built by linkedom, turndown writes it as Markdown), JSON is pretty-printed, other text passes through; PDFs
// and other binary content are refused. The HTML libraries load on the first page, never at startup.
import { looksBinary } from "../core/index.js";
import type { FetchedPage } from "./web-request.js";

export interface PageText {
	title?: string;
	/** "markdown", "json" or "text". */
	kind: "markdown" | "json" | "text";
	text: string;
}

export async function pageText(page: FetchedPage): Promise<PageText> {
	const [mime = "", ...parameters] = page.contentType.split(";").map((part) => part.trim().toLowerCase());
	if (mime === "application/pdf" || page.body.subarray(0, 5).toString("latin1") === "%PDF-") {
		throw new Error(`${page.url} is a PDF; web_fetch does not read PDFs. Download it with bash (curl -o file.pdf) and convert it with a tool such as pdftotext if one is installed, or ask the user for the text.`);
	}
	const charset = parameters.find((parameter) => parameter.startsWith("charset="))?.slice(8).replace(/"/g, "");
	const isHtml = mime === "text/html" || mime === "application/xhtml+xml" || (mime === "" && /^\s*(<!doctype html|<html)/i.test(page.body.subarray(0, 512).toString("latin1")));
	const isJson = mime === "application/json" || mime.endsWith("+json");
	const isText = mime.startsWith("text/") || mime === "" || mime.endsWith("+xml") || mime === "application/xml" || mime === "application/javascript" || mime === "application/x-ndjson";
	if (!isHtml && !isJson && !isText) throw new Error(`${page.url} is ${mime}, not a page or text; web_fetch shows only HTML, JSON and text.`);
	if (looksBinary(page.body.subarray(0, 8192))) throw new Error(`${page.url} says it is ${mime || "text"} but holds binary data; it is not shown.`);
	const text = decode(page.body, charset);
	if (isHtml) return htmlToMarkdown(text, page.url);
	if (isJson) {
		try {
			return { kind: "json", text: JSON.stringify(JSON.parse(text), null, 2) };
		} catch {
			return { kind: "text", text };
		}
	}
	return { kind: "text", text };
}

function decode(body: Buffer, charset: string | undefined): string {
	try {
		return new TextDecoder(charset || "utf-8").decode(body);
	} catch {
		return new TextDecoder("utf-8").decode(body);
	}
}

type Turndown = { turndown(html: string): string; remove(filter: string[]): unknown };

async function htmlToMarkdown(html: string, url: string): Promise<PageText> {
	const [{ parseHTML }, { Readability }, turndownModule] = await Promise.all([import("linkedom"), import("@mozilla/readability"), import("turndown")]);
	const TurndownService = (turndownModule as { default: new (options: object) => Turndown }).default;
	const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
	turndown.remove(["script", "style", "noscript", "iframe", "template"]);
	const { document } = parseHTML(html);
	const title = document.title?.trim() || undefined;
	let article: { title?: string | null; content?: string | null } | null = null;
	try {
		article = new Readability(document.cloneNode(true) as unknown as Document, { charThreshold: 200 }).parse();
	} catch {
		article = null;
	}
	if (article?.content) return { kind: "markdown", title: article.title?.trim() || title, text: tidy(turndown.turndown(absolutize(article.content, url))) };
	// No article found (a listing, an app shell): the body without its chrome.
	for (const element of document.querySelectorAll("script, style, noscript, nav, header, footer, aside, form")) element.remove();
	return { kind: "markdown", title, text: tidy(turndown.turndown(document.body?.innerHTML ?? html)) };
}

/** Relative links and images made absolute, so the Markdown's links lead somewhere. */
function absolutize(html: string, base: string): string {
	return html.replace(/(\s(?:href|src)=")([^"]*)"/g, (whole, attribute: string, value: string) => {
		try {
			return `${attribute}${new URL(value.replace(/&amp;/g, "&"), base).href}"`;
		} catch {
			return whole;
		}
	});
}

function tidy(markdown: string): string {
	return markdown.replace(/\n{3,}/g, "\n\n").trim();
}
