// Text projections of messages as the screen shows them: a prompt as typed, a user message with its images named,
// thinking. Plain text of any content is core/messages' textFromContent.
import { attachedFiles, textFromContent } from "../../core/index.js";

type ContentBlock = { type: string; text?: unknown; thinking?: unknown; redacted?: unknown };

/** Text of a user message, with a placeholder for each image so nothing silently disappears. */
export function userText(content: unknown): string {
	return textFromContent(content, { image: () => "[image]", dropEmpty: true });
}

/** A prompt as the user typed it (a paste's marker, a command line) where the message keeps it, else its text. */
export function typedText(message: unknown): string {
	const { typed, content } = (message ?? {}) as { typed?: unknown; content?: unknown };
	return typeof typed === "string" ? typed : userText(content);
}

/** A prompt's transcript item: as typed, with the files it attached. */
export function promptItem(message: unknown, cwd: string | undefined): { kind: "user"; text: string; attached?: string[] } {
	const attached = attachedFiles(message, cwd);
	return attached.length > 0 ? { kind: "user", text: typedText(message), attached } : { kind: "user", text: typedText(message) };
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
