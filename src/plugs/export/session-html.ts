// A session's conversation as one self-contained HTML page: every message with its markdown, thinking folded
// away, each tool call with its arguments, output and diff, and the token and cost totals. No script at all, the
// style inline, and a Content-Security-Policy that forbids every request: the page reads the same offline, and
// nothing the model wrote can run in it.
import { Marked, type Tokens } from "marked";
import type {
	WebSearchRecord,
	AgentMessage,
	AssistantMessage,
	ImageContent,
	ToolCall,
	ToolResultMessage,
	SessionEntry,
	SessionHeader,
} from "../../core/index.js";
import {
	messageSearch,
	formatCost,
	formatCount,
	formatSize,
	formatTokens,
	pairToolResults,
	splitAttachedBlocks,
	textFromContent,
	promptText,
	subagentLink,
	sumUsage,
	type NamedToolPresentation,
	findTool,
	toolResultLines,
	toolSummary,
} from "../../core/index.js";
import { PAGE_STYLE } from "./page-style.js";

export interface ExportInput {
	header: SessionHeader;
	/** The conversation to show: its chain of entries, first to last. */
	entries: readonly SessionEntry[];
	/** How tools show their calls (argument summaries, diffs); a tool without one gets generic rows. */
	tools?: readonly NamedToolPresentation[];
	/** Branches of the session besides the one shown (rewinds leave them in the file). */
	otherBranches?: number;
	exportedAt?: Date;
	/** The conversations of the subagents the task calls started, by the call's id, shown folded inside the call. */
	children?: ReadonlyMap<string, SubagentConversation>;
}

/** A subagent's session as its parent's page shows it. */
export interface SubagentConversation {
	entries: readonly SessionEntry[];
	children?: ReadonlyMap<string, SubagentConversation>;
}

/** What a conversation's blocks are drawn with. */
interface Drawing {
	tools?: readonly NamedToolPresentation[];
	children?: ReadonlyMap<string, SubagentConversation>;
}

/** A tool's output longer than this keeps its start and end, with a line saying what was left out. */
const MAX_OUTPUT_CHARS = 100_000;
/** Lines a tool's own rendering (a diff) may show. */
const MAX_TOOL_LINES = 2000;
/** Output of at most this many lines is shown open; longer output starts folded. */
const OPEN_OUTPUT_LINES = 20;

export function renderSessionHtml(input: ExportInput): string {
	const messages = input.entries.flatMap((entry) => (entry.type === "message" ? [entry.message] : []));
	const body = conversationBlocks(input.entries, { tools: input.tools, children: input.children });
	const title = firstPrompt(messages) || "loom session";
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="loom">
<title>${escapeHtml(`loom · ${title.slice(0, 80)}`)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<main>
${summaryHeader(input, messages)}
${body.join("\n")}
</main>
</body>
</html>
`;
}

function conversationBlocks(entries: readonly SessionEntry[], drawing: Drawing): string[] {
	const messages = entries.flatMap((entry) => (entry.type === "message" ? [entry.message] : []));
	const results = pairToolResults(messages);
	const shown = new Set<ToolResultMessage>();
	const body: string[] = [];
	for (const entry of entries) {
		if (entry.type === "compaction") body.push(compactionBlock(entry.summary, entry.tokensBefore));
		if (entry.type !== "message") continue;
		const message = entry.message;
		if (message.role === "user") body.push(userBlock(entry.id, entry.timestamp, message));
		else if (message.role === "assistant") body.push(assistantBlock(entry.id, entry.timestamp, message, results, shown, drawing));
		else if (message.role === "toolResult" && !shown.has(message)) body.push(orphanResult(message, drawing));
	}
	return body;
}

/** A task call's subagent: which agent, its session file, and its conversation folded away (when it was found). */
function subagentBlock(result: ToolResultMessage, drawing: Drawing): string {
	const link = subagentLink(result);
	if (!link) return "";
	const usage = `${formatTokens(link.usage.input + link.usage.cacheRead + link.usage.cacheWrite)} in · ${formatTokens(link.usage.output)} out · ${formatCost(link.usage.cost)}`;
	const where = link.sessionFile ? ` · ${link.sessionFile}` : "";
	const branch = link.worktree ? ` · branch ${link.worktree.branch}` : "";
	const label = `Subagent ${link.agent} · session ${link.sessionId}${where}${branch} · ${usage}`;
	const child = drawing.children?.get(result.toolCallId);
	if (!child) return `<p class="subagent">${escapeHtml(label)}</p>`;
	const blocks = conversationBlocks(child.entries, { tools: drawing.tools, children: child.children });
	return `<details class="subagent"><summary>${escapeHtml(label)}</summary>${blocks.join("\n")}</details>`;
}

function summaryHeader(input: ExportInput, messages: readonly AgentMessage[]): string {
	const usage = sumUsage(messages);
	const models = [...new Set(messages.flatMap((message) => (message.role === "assistant" ? [`${message.provider}/${message.model}`] : [])))];
	const rows: [string, string][] = [
		["Session", input.header.id],
		["Started", input.header.created],
		["Directory", input.header.cwd],
		...(input.header.parentSession ? [["Forked from", input.header.parentSession] as [string, string]] : []),
		...(input.otherBranches ? [["Branch", otherBranchesText(input.otherBranches)] as [string, string]] : []),
		["Model", models.join(", ") || "none"],
		["Messages", String(messages.length)],
		["Tokens", `${formatTokens(usage.input + usage.cacheRead + usage.cacheWrite)} in (${formatTokens(usage.cacheRead)} cached) · ${formatTokens(usage.output)} out`],
		["Cost", formatCost(usage.cost)],
		["Exported", (input.exportedAt ?? new Date()).toISOString()],
	];
	const list = rows.map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd>`).join("");
	return `<header><h1>${escapeHtml(firstPrompt(messages) || "loom session")}</h1><dl class="totals">${list}</dl></header>`;
}

function otherBranchesText(others: number): string {
	return `the current one; the session holds ${others} other${others === 1 ? " (/tree in loom switches to it)" : "s (/tree in loom switches to them)"}`;
}

function heading(role: string, entryId: string, timestamp: string): string {
	return `<div class="role">${role}<a class="entry" href="#e-${escapeHtml(entryId)}" title="entry id, for loom --fork &lt;session&gt;:&lt;entry&gt;">#${escapeHtml(entryId)}</a><time>${escapeHtml(timestamp)}</time></div>`;
}

function userBlock(entryId: string, timestamp: string, message: AgentMessage & { role: "user" }): string {
	const content = message.content;
	const parts: string[] = [];
	if (typeof content === "string") parts.push(promptBlock(content));
	else {
		for (const part of content) {
			if (part.type === "text") parts.push(promptBlock(part.text));
			else if (part.type === "image") parts.push(imageBlock(part));
		}
	}
	return `<article class="message user" id="e-${escapeHtml(entryId)}">${heading("You", entryId, timestamp)}${parts.join("")}</article>`;
}

/** The provider's searches and the answer's pages, numbered links; only http(s) addresses become links. */
function sourcesBlock(search: WebSearchRecord): string {
	const queries = search.queries.length > 0 ? `<p class="searched">Searched: ${escapeHtml(search.queries.join("; "))}</p>` : "";
	const items = search.sources.map((source) => `<li><a href="${escapeHtml(source.url)}" rel="noreferrer noopener">${escapeHtml(source.title ?? source.url)}</a></li>`).join("");
	return `<div class="sources">${queries}${items ? `<ol>${items}</ol>` : ""}</div>`;
}

function assistantBlock(
	entryId: string,
	timestamp: string,
	message: AssistantMessage,
	results: ReadonlyMap<ToolCall, ToolResultMessage>,
	shown: Set<ToolResultMessage>,
	drawing: Drawing,
): string {
	const parts: string[] = [];
	for (const part of message.content) {
		if (part.type === "thinking" && part.thinking.trim() !== "") {
			parts.push(`<details class="thinking"><summary>Thinking</summary>${markdownBlock(part.thinking)}</details>`);
		} else if (part.type === "text" && part.text.trim() !== "") parts.push(markdownBlock(part.text));
		else if (part.type === "toolCall") {
			const result = results.get(part);
			if (result) shown.add(result);
			parts.push(toolBlock(part, result, drawing));
		}
	}
	const search = messageSearch(message);
	if (search) parts.push(sourcesBlock(search));
	if (message.stopReason === "error" || message.stopReason === "aborted") {
		parts.push(`<p class="stopped">${escapeHtml(message.stopReason === "aborted" ? "Interrupted." : `Error: ${message.errorMessage ?? "the request failed"}`)}</p>`);
	}
	const usage = message.usage;
	const line = usage
		? `${formatTokens((usage.input ?? 0) + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0))} in · ${formatTokens(usage.output ?? 0)} out · ${formatCost(usage.cost?.total ?? 0)} · ${message.provider}/${message.model}`
		: `${message.provider}/${message.model}`;
	return `<article class="message assistant" id="e-${escapeHtml(entryId)}">${heading("Assistant", entryId, timestamp)}${parts.join("")}<div class="usage">${escapeHtml(line)}</div></article>`;
}

function toolBlock(call: ToolCall, result: ToolResultMessage | undefined, drawing: Drawing): string {
	const tool = findTool(drawing.tools, call.name);
	const summary = toolSummary(tool, call.arguments);
	const resultText = result ? textFromContent(result.content) : undefined;
	const status = !result ? "no result" : result.isError ? "error" : "done";
	const parts = [
		`<div class="tool-head"><span class="tool-name">${escapeHtml(call.name)}</span> <code>${escapeHtml(summary)}</code> <span class="status">${escapeHtml(status)}</span></div>`,
		`<details class="args"><summary>Arguments</summary><pre>${escapeHtml(prettyJson(call.arguments))}</pre></details>`,
	];
	if (result) {
		const lines = toolResultLines(tool, { status: result.isError ? "error" : "done", args: call.arguments, resultText, details: result.details }, MAX_TOOL_LINES);
		if (lines.some((line) => line.style === "added" || line.style === "removed" || line.style === "hunk")) {
			parts.push(`<pre class="diff">${lines.map((line) => `<span class="${line.style}">${escapeHtml(line.text)}</span>`).join("\n")}</pre>`);
		}
		parts.push(outputBlock(resultText ?? "", result.isError));
		for (const part of result.content) if (part.type === "image") parts.push(imageBlock(part));
		parts.push(subagentBlock(result, drawing));
	}
	return `<section class="tool${result?.isError ? " failed" : ""}">${parts.join("")}</section>`;
}

function orphanResult(result: ToolResultMessage, drawing: Drawing): string {
	const call: ToolCall = { type: "toolCall", id: result.toolCallId, name: result.toolName, arguments: {} };
	return toolBlock(call, result, drawing);
}

function outputBlock(text: string, isError: boolean): string {
	const bounded = boundedOutput(text);
	const lines = bounded === "" ? 0 : bounded.split("\n").length;
	const open = lines <= OPEN_OUTPUT_LINES ? " open" : "";
	const label = `${isError ? "Error" : "Output"} · ${formatCount(lines, "line")}`;
	return `<details class="output"${open}><summary>${label}</summary><pre>${escapeHtml(bounded)}</pre></details>`;
}

function compactionBlock(summary: string, tokensBefore: number): string {
	return `<aside class="compaction"><details><summary>The conversation before this point was summarised for the model (${escapeHtml(formatTokens(tokensBefore))} tokens); the summary:</summary>${markdownBlock(summary)}</details></aside>`;
}

/** A prompt's text: the files attached to it folded away as attachments (name and size), then what was typed. */
function promptBlock(text: string): string {
	const { blocks, rest } = splitAttachedBlocks(text);
	const files = blocks.map((block) =>
		block.text === undefined
			? `<p class="attachment">Attached image ${escapeHtml(block.name)}</p>`
			: `<details class="attachment"><summary>Attached ${escapeHtml(block.name)} · ${escapeHtml(formatSize(Buffer.byteLength(block.text)))}</summary><pre>${escapeHtml(boundedOutput(block.text))}</pre></details>`,
	);
	return files.join("") + (rest === "" ? "" : markdownBlock(rest));
}

function markdownBlock(text: string): string {
	return `<div class="md">${markdownToHtml(text)}</div>`;
}

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** An image the user attached or a tool returned, inline as data (never fetched). */
function imageBlock(image: ImageContent): string {
	if (!IMAGE_TYPES.has(image.mimeType) || !/^[A-Za-z0-9+/=\s]*$/.test(image.data)) return `<p class="image">[image: ${escapeHtml(image.mimeType)}]</p>`;
	return `<img class="attached" alt="attached image" src="data:${image.mimeType};base64,${image.data.replace(/\s/g, "")}">`;
}

function boundedOutput(text: string): string {
	if (text.length <= MAX_OUTPUT_CHARS) return text;
	const half = MAX_OUTPUT_CHARS / 2;
	return `${text.slice(0, half)}\n… ${text.length - MAX_OUTPUT_CHARS} characters left out of this export …\n${text.slice(-half)}`;
}

function prettyJson(value: unknown): string {
	try {
		return JSON.stringify(value, null, 2) ?? "";
	} catch {
		return String(value);
	}
}

function firstPrompt(messages: readonly AgentMessage[]): string {
	const first = messages.find((message) => message.role === "user");
	// A prompt without its typed form (print mode's) starts with its files' blocks: the title is what follows.
	const text = first ? promptText(first) : "";
	return (splitAttachedBlocks(text).rest || text).replace(/\s+/g, " ").trim();
}

// Markdown from the model (or the user) as HTML that cannot run or fetch anything: raw HTML is shown as text,
// links go only to web and mail addresses, images are named instead of loaded.
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
