// A file named with @ in a prompt (`loom -p @app.ts …`, `@app.ts` typed in the screen): read checked and bounded,
// a text file inlined as a block the model reads, an image attached as image content.
import { resolve } from "node:path";
import {
	CheckedReadError,
	readCheckedFile,
	formatSize,
	expandHome,
	MAX_IMAGE_BYTES,
	detectImageMimeType,
	looksBinary,
} from "../lib/index.js";
import type { ImageContent } from "./llm-types.js";
import { inlinedFile } from "./messages.js";

/** A text file is inlined up to this size: more would not fit a model's context anyway. */
export const MAX_ATTACHED_TEXT_BYTES = 10 * 1024 * 1024;

/** A file read for a prompt, by its absolute path: its text, or an image. `bytes`: its size. */
export type Attachment = { path: string; bytes: number; text: string } | { path: string; bytes: number; image: ImageContent };

/** Why a named file cannot go with the prompt; `code` as CheckedReadError's (ENOENT: no such file, EISDIR: a folder). */
export class AttachmentError extends Error {
	constructor(
		message: string,
		readonly code: string,
	) {
		super(message);
		this.name = "AttachmentError";
	}
}

/** The absolute path `@file` names: relative to `cwd`, `~` allowed. */
export function attachmentPath(file: string, cwd: string): string {
	return resolve(cwd, expandHome(file));
}

/** Reads `file` (see attachmentPath) as `@file` names it, or throws AttachmentError saying why not. */
export function readAttachment(file: string, cwd: string): Attachment {
	const path = attachmentPath(file, cwd);
	let bytes: Buffer;
	try {
		// Only regular files, and never more than the larger limit: a device or a FIFO could go on forever.
		bytes = readCheckedFile(path, { maxBytes: Math.max(MAX_ATTACHED_TEXT_BYTES, MAX_IMAGE_BYTES), label: `@${file}` });
	} catch (error) {
		if (!(error instanceof CheckedReadError)) throw new AttachmentError(`@${file}: cannot read ${path}: ${(error as Error).message}`, "EIO");
		if (error.code === "ENOENT") throw new AttachmentError(`@${file}: no such file (${path}).`, error.code);
		if (error.code === "EISDIR") throw new AttachmentError(`@${file} is a directory; name a file.`, error.code);
		if (error.code === "ETOOBIG") throw tooLarge(file, error.size!);
		throw new AttachmentError(error.code === "ENOTREG" ? `${error.message} To inline a command's output, pipe it on stdin.` : error.message, error.code);
	}
	const mimeType = detectImageMimeType(bytes);
	if (mimeType && bytes.length > MAX_IMAGE_BYTES) {
		throw new AttachmentError(
			`@${file} is an image of ${formatSize(bytes.length)}, over the ${formatSize(MAX_IMAGE_BYTES)} providers accept; attach a smaller copy.`,
			"ETOOBIG",
		);
	}
	if (mimeType) return { path, bytes: bytes.length, image: { type: "image", data: bytes.toString("base64"), mimeType } };
	if (bytes.length > MAX_ATTACHED_TEXT_BYTES) throw tooLarge(file, bytes.length);
	if (looksBinary(bytes)) throw new AttachmentError(`@${file} is a binary file that is not an image (png, jpeg, gif, webp); it cannot be inlined.`, "EBINARY");
	return { path, bytes: bytes.length, text: bytes.toString("utf8").replace(/\n$/, "") };
}

/** The block the prompt carries for an attachment: the file's text, or a note that the image is attached. */
export function attachmentBlock(attachment: Attachment): string {
	return "image" in attachment ? `<file name="${attachment.path}">(image attached)</file>` : inlinedFile(attachment.path, attachment.text);
}

/** A file block read back from a prompt's text: its name, and its text (undefined for an image, sent as its own part). */
export interface AttachedBlock {
	name: string;
	text?: string;
}

const LEADING_BLOCK = /^<file name="([^"\n]*)">(?:\(image attached\)<\/file>|\n([\s\S]*?)\n<\/file>)(?:\n\n|$)/;

/**
 * The attachmentBlock()s at the start of a prompt's text (where loom puts them) and the text after them, for
 * showing the files as attachments rather than as markup.
 */
export function splitAttachedBlocks(text: string): { blocks: AttachedBlock[]; rest: string } {
	const blocks: AttachedBlock[] = [];
	let rest = text;
	for (let match = LEADING_BLOCK.exec(rest); match; match = LEADING_BLOCK.exec(rest)) {
		blocks.push(match[2] === undefined ? { name: match[1]! } : { name: match[1]!, text: match[2] });
		rest = rest.slice(match[0].length);
	}
	return { blocks, rest };
}

function tooLarge(file: string, size: number): AttachmentError {
	return new AttachmentError(
		`@${file} is ${formatSize(size)}; loom inlines files up to ${MAX_ATTACHED_TEXT_BYTES / 1024 / 1024} MB. Inline a part of it (e.g. piped through tail), or ask the model to read it with its read tool.`,
		"ETOOBIG",
	);
}
