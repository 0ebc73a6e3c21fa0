// Builds the prompt from its three sources: @file arguments, prompt words, and piped stdin.
import { resolve } from "node:path";
import { CheckedReadError, readCheckedFile } from "../core/checked-read.js";
import { detectImageMimeType, looksBinary, MAX_IMAGE_BYTES } from "../core/files/file-kind.js";
import { formatSize } from "../core/format.js";
import { expandHome } from "../core/home-path.js";
import type { ImageContent } from "../core/llm-types.js";
import { inlinedFile } from "../core/messages.js";
import { UsageError } from "./usage-error.js";

export const MAX_STDIN_BYTES = 10 * 1024 * 1024;
/** A text @file is held to the stdin limit: more would not fit a model's context anyway. */
const MAX_FILE_BYTES = MAX_STDIN_BYTES;

export interface PromptInput {
	text: string;
	images: ImageContent[];
	/** What `text` is joined from: the @files' blocks, the prompt's words (where a command is named), stdin. */
	parts: { blocks: string[]; words: string; stdin: string };
}

/** A note for when stdin is open but silent (a parent process that never closes it would otherwise hang loom unseen). */
export interface StdinWaitNotice {
	afterMs: number;
	notify: (text: string) => void;
}

const STDIN_WAIT_NOTICE =
	"loom: waiting for stdin (it is not a terminal, so its text joins the prompt); if there is nothing to pipe, run loom with </dev/null.";

/** Reads all of a piped stdin; more than `limit` bytes is a usage error (nothing is silently cut). */
export async function readStdin(
	stream: NodeJS.ReadableStream = process.stdin,
	limit = MAX_STDIN_BYTES,
	wait?: StdinWaitNotice,
): Promise<string> {
	const timer = wait ? setTimeout(() => wait.notify(STDIN_WAIT_NOTICE), wait.afterMs) : undefined;
	timer?.unref();
	try {
		return await readAll(stream, limit, () => clearTimeout(timer));
	} finally {
		clearTimeout(timer);
	}
}

async function readAll(stream: NodeJS.ReadableStream, limit: number, onData: () => void): Promise<string> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of stream) {
		onData();
		const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
		size += buffer.length;
		if (size > limit) {
			throw new UsageError(
				`stdin is larger than ${limit / 1024 / 1024} MB. Save it to a file and pass it as @path, or send less.`,
			);
		}
		chunks.push(buffer);
	}
	return Buffer.concat(chunks).toString("utf8");
}

/** Text files become `<file name="...">` blocks before the prompt; images are attached as image content. */
export function buildPromptInput(files: readonly string[], words: string, stdinText: string, cwd: string): PromptInput {
	const blocks: string[] = [];
	const images: ImageContent[] = [];
	for (const file of files) {
		const inlined = inlineFile(file, cwd);
		if ("image" in inlined) {
			images.push(inlined.image);
			blocks.push(`<file name="${inlined.path}">(image attached)</file>`);
		} else {
			blocks.push(inlinedFile(inlined.path, inlined.text));
		}
	}
	return withWords({ text: "", images, parts: { blocks, words: words.trim(), stdin: stdinText.trimEnd() } }, words);
}

/** The same input with other words in the prompt's place (a prompt template's text for the command naming it). */
export function withWords(input: PromptInput, words: string): PromptInput {
	const parts = { ...input.parts, words: words.trim() };
	const text = [...parts.blocks, parts.words, parts.stdin].filter((part) => part !== "").join("\n\n");
	return { ...input, text, parts };
}

function inlineFile(file: string, cwd: string): { path: string; text: string } | { path: string; image: ImageContent } {
	const path = resolve(cwd, expandHome(file));
	let bytes: Buffer;
	try {
		// Only regular files, and never more than the larger limit: a device or a FIFO could go on forever.
		bytes = readCheckedFile(path, { maxBytes: Math.max(MAX_FILE_BYTES, MAX_IMAGE_BYTES), label: `@${file}` });
	} catch (error) {
		if (!(error instanceof CheckedReadError)) throw new UsageError(`@${file}: cannot read ${path}: ${(error as Error).message}`);
		if (error.code === "ENOENT") throw new UsageError(`@${file}: no such file (${path}).${splitHint(file)}`);
		if (error.code === "EISDIR") throw new UsageError(`@${file} is a directory; name a file.`);
		if (error.code === "ETOOBIG") throw tooLarge(file, error.size!);
		throw new UsageError(error.code === "ENOTREG" ? `${error.message} To inline a command's output, pipe it on stdin.` : error.message);
	}
	const mimeType = detectImageMimeType(bytes);
	if (mimeType && bytes.length > MAX_IMAGE_BYTES) {
		throw new UsageError(
			`@${file} is an image of ${formatSize(bytes.length)}, over the ${formatSize(MAX_IMAGE_BYTES)} providers accept; attach a smaller copy.`,
		);
	}
	if (mimeType) return { path, image: { type: "image", data: bytes.toString("base64"), mimeType } };
	if (bytes.length > MAX_FILE_BYTES) throw tooLarge(file, bytes.length);
	if (looksBinary(bytes)) throw new UsageError(`@${file} is a binary file that is not an image (png, jpeg, gif, webp); it cannot be inlined.`);
	return { path, text: bytes.toString("utf8").replace(/\n$/, "") };
}

function tooLarge(file: string, size: number): UsageError {
	return new UsageError(
		`@${file} is ${formatSize(size)}; loom inlines files up to ${MAX_FILE_BYTES / 1024 / 1024} MB. Inline a part of it (e.g. piped through tail), or ask the model to read it with its read tool.`,
	);
}

/** `loom -p "@app.ts explain this"` (one argument) names a file "app.ts explain this"; show the intended split. */
function splitHint(file: string): string {
	const match = /^(\S+)\s+(\S[\s\S]*)$/.exec(file);
	if (!match) return "";
	const [, path, words] = match;
	return ` An argument starting with @ is one file name; give the file and the question as separate arguments: loom -p @${path} ${JSON.stringify(words!.trim())}`;
}
