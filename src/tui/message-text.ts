// Text projections of messages and tool results: only text blocks, joined by newlines.

type ContentBlock = { type: string; text?: unknown; thinking?: unknown; redacted?: unknown };

export { textFromContent } from "../core/messages.js";

/** Text of a user message, with a placeholder for each image so nothing silently disappears. */
export function userText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return (content as ContentBlock[])
		.map((block) => (block?.type === "text" && typeof block.text === "string" ? block.text : block?.type === "image" ? "[image]" : ""))
		.filter((part) => part !== "")
		.join("\n");
}

export interface ThinkingText {
	text: string;
	redacted: boolean;
}

export function thinkingFromContent(content: unknown): ThinkingText {
	if (!Array.isArray(content)) return { text: "", redacted: false };
	const parts: string[] = [];
	let redacted = false;
	for (const block of content as ContentBlock[]) {
		if (block?.type !== "thinking") continue;
		if (block.redacted === true) redacted = true;
		if (typeof block.thinking === "string" && block.thinking !== "") parts.push(block.thinking);
	}
	return { text: parts.join("\n"), redacted };
}
