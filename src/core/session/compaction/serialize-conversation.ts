// The older messages as plain text for the summariser: readable, bounded, never sent as a real conversation
// (a summariser given real turns tends to continue them instead of summarising them).
import type { AgentMessage } from "../../engine/index.js";
import type { AssistantMessage, ImageContent, TextContent, ToolResultMessage } from "../../ai/index.js";
import { textFromContent } from "../../ai/index.js";

export interface SerializeOptions {
	/** Each tool result keeps at most this many characters (default 2,000). */
	toolResultMaxChars?: number;
	/** Each tool call's arguments keep at most this many characters (default 1,000: a written file's content is long). */
	toolArgumentsMaxChars?: number;
	/** Each user or assistant text and thinking block keeps at most this many characters (default 8,000). */
	textMaxChars?: number;
	/** The whole text keeps at most this many characters, dropping whole messages from the middle. */
	maxChars?: number;
}

/** Keeps the head and the tail of a long text, saying how much was left out. */
function truncateMiddle(text: string, maxChars: number): string {
	if (text.length <= maxChars) return text;
	const head = Math.ceil(maxChars * 0.6);
	const tail = maxChars - head;
	return `${text.slice(0, head)}\n[… ${text.length - head - tail} characters left out …]\n${tail > 0 ? text.slice(-tail) : ""}`;
}

function truncateHead(text: string, maxChars: number): string {
	if (text.length <= maxChars) return text;
	return `${text.slice(0, maxChars)}\n[… ${text.length - maxChars} more characters left out]`;
}

function partsText(content: string | readonly (TextContent | ImageContent)[]): string {
	return textFromContent(content, { image: (image) => `[image ${image.mimeType}]` });
}

function serializeMessage(message: AgentMessage, options: Required<Omit<SerializeOptions, "maxChars">>): string {
	const role = (message as { role?: string }).role;
	if (role === "user") {
		return `[User]: ${truncateMiddle(partsText((message as { content: string | TextContent[] }).content), options.textMaxChars)}`;
	}
	if (role === "assistant") {
		const lines: string[] = [];
		for (const part of (message as AssistantMessage).content) {
			if (part.type === "thinking" && !part.redacted && part.thinking.trim() !== "") {
				lines.push(`[Assistant thinking]: ${truncateMiddle(part.thinking, options.textMaxChars)}`);
			} else if (part.type === "text" && part.text.trim() !== "") {
				lines.push(`[Assistant]: ${truncateMiddle(part.text, options.textMaxChars)}`);
			} else if (part.type === "toolCall") {
				const args = truncateHead(JSON.stringify(part.arguments ?? {}), options.toolArgumentsMaxChars);
				lines.push(`[Assistant tool call ${part.name}]: ${args}`);
			}
		}
		const assistant = message as AssistantMessage;
		if (assistant.stopReason === "error" || assistant.stopReason === "aborted") {
			lines.push(`[Assistant turn ${assistant.stopReason === "error" ? `failed: ${assistant.errorMessage ?? "error"}` : "aborted by the user"}]`);
		}
		return lines.join("\n");
	}
	if (role === "toolResult") {
		const result = message as ToolResultMessage;
		const label = result.isError ? `[Tool error ${result.toolName}]` : `[Tool result ${result.toolName}]`;
		return `${label}: ${truncateHead(partsText(result.content), options.toolResultMaxChars)}`;
	}
	// App-defined roles: their text, if they carry any.
	const content = (message as { content?: unknown }).content;
	if (typeof content === "string" || Array.isArray(content)) return `[${role ?? "note"}]: ${partsText(content as TextContent[])}`;
	return "";
}

/** One block per message, blank-line separated; bounded by `maxChars` by leaving out messages in the middle. */
export function serializeConversation(messages: readonly AgentMessage[], options: SerializeOptions = {}): string {
	const resolved = {
		toolResultMaxChars: options.toolResultMaxChars ?? 2000,
		toolArgumentsMaxChars: options.toolArgumentsMaxChars ?? 1000,
		textMaxChars: options.textMaxChars ?? 8000,
	};
	const blocks = messages.map((message) => serializeMessage(message, resolved)).filter((block) => block !== "");
	const text = blocks.join("\n\n");
	if (options.maxChars === undefined || text.length <= options.maxChars) return text;
	return fitBlocks(blocks, options.maxChars);
}

// The start (the original request) and the end (the latest state) matter most; the middle goes first.
function fitBlocks(blocks: string[], maxChars: number): string {
	const headBudget = Math.floor(maxChars * 0.25);
	const head: string[] = [];
	let used = 0;
	for (const block of blocks) {
		if (used + block.length + 2 > headBudget) break;
		head.push(block);
		used += block.length + 2;
	}
	const tail: string[] = [];
	for (let i = blocks.length - 1; i >= head.length; i--) {
		const block = blocks[i]!;
		if (used + block.length + 2 > maxChars - 80) break;
		tail.unshift(block);
		used += block.length + 2;
	}
	const omitted = blocks.length - head.length - tail.length;
	if (head.length === 0 && tail.length === 0) return truncateMiddle(blocks.join("\n\n"), maxChars);
	return [...head, `[… ${omitted} messages left out to fit the summariser's context …]`, ...tail].join("\n\n");
}
