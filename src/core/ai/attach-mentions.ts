// `@path` in a prompt's text attaches the file, as `loom -p @path` does, in the screen and in print mode alike: its
// text inlined ahead of the prompt, an image attached where the model takes images. The transcript then names what went along (path and size) from
// the message itself, so a resumed session shows it too.
import { formatSize, type Mention, mentions } from "../lib/index.js";
import { type Attachment, AttachmentError, attachmentBlock, attachmentPath, readAttachment } from "./attach-file.js";
import type { ImageContent } from "./llm-types.js";
import { textFromContent } from "./messages.js";

export interface AttachedPrompt {
	/** The prompt with the files' blocks ahead of it (the prompt itself unchanged when nothing was attached). */
	text: string;
	images: ImageContent[];
	attached: Attachment[];
}

/** Where the model's images go, for a message saying where they cannot. */
export interface ImageTarget {
	/** False when the model takes text only. */
	acceptsImages: boolean;
	model: string;
}

/** A path once followed by punctuation ("see @notes.md, then"): the file without it, when only that exists. */
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"]+$/;

/**
 * `text` with the files that `typed`'s @-mentions name. A mention that names no file (no such path, a folder) is
 * plain text, left as it is; a file that cannot go along (too large, binary, not a regular file, an image the model
 * does not take) throws an Error saying why, and nothing is sent. A file in `read` (read already, by its path) is
 * taken from there instead of being read again.
 */
export function attachMentions(text: string, typed: string, cwd: string, target: ImageTarget, read: readonly Attachment[] = []): AttachedPrompt {
	const attached: Attachment[] = [];
	for (const mention of mentions(typed)) {
		const attachment = attachmentOf(mention, cwd, read);
		if (!attachment || attached.some((done) => done.path === attachment.path)) continue;
		if ("image" in attachment && !target.acceptsImages) {
			throw new Error(`@${mention.path} is an image, and ${target.model} takes text only: switch to a model that takes images (/model), or leave the image out.`);
		}
		attached.push(attachment);
	}
	if (attached.length === 0) return { text, images: [], attached };
	return {
		text: [...attached.map(attachmentBlock), text].join("\n\n"),
		images: attached.flatMap((attachment) => ("image" in attachment ? [attachment.image] : [])),
		attached,
	};
}

function attachmentOf(mention: Mention, cwd: string, read: readonly Attachment[]): Attachment | undefined {
	const bare = mention.path.replace(TRAILING_PUNCTUATION, "");
	for (const path of bare !== mention.path && bare !== "" ? [mention.path, bare] : [mention.path]) {
		const known = read.find((attachment) => attachment.path === attachmentPath(path, cwd));
		if (known) return known;
		try {
			return readAttachment(path, cwd);
		} catch (error) {
			if (!(error instanceof AttachmentError) || (error.code !== "ENOENT" && error.code !== "EISDIR" && error.code !== "ENOTDIR")) throw error;
		}
	}
	return undefined;
}

/**
 * The files a prompt's message carries for its @-mentions, each as "path (size)" with the path as typed: found
 * by the blocks attachMentions wrote (a message without them, or without a typed form, names none).
 */
export function attachedFiles(message: unknown, cwd: string | undefined): string[] {
	const { typed, content } = (message ?? {}) as { typed?: unknown; content?: unknown };
	if (typeof typed !== "string" || cwd === undefined) return [];
	const blocks = Array.isArray(content) ? content : [content];
	const text = textFromContent(content);
	const images = blocks.filter((block) => block?.type === "image" && typeof block.data === "string") as ImageContent[];
	const shown: string[] = [];
	const seen = new Set<string>();
	let image = 0;
	for (const mention of mentions(typed)) {
		for (const path of [mention.path, mention.path.replace(TRAILING_PUNCTUATION, "")]) {
			const absolute = attachmentPath(path, cwd);
			const open = `<file name="${absolute}">`;
			const at = text.indexOf(open);
			if (at === -1 || seen.has(absolute)) continue;
			seen.add(absolute);
			if (text.startsWith("(image attached)</file>", at + open.length)) {
				const data = images[image++]?.data ?? "";
				shown.push(`${path} (image, ${formatSize(Math.floor((data.length * 3) / 4))})`);
			} else {
				const end = text.indexOf("\n</file>", at);
				shown.push(`${path} (${formatSize(Buffer.byteLength(text.slice(at + open.length + 1, end === -1 ? undefined : end)))})`);
			}
			break;
		}
	}
	return shown;
}
