// Builds the prompt from its three sources: @file arguments, prompt words, and piped stdin.
import { type Attachment, AttachmentError, attachMentions, attachmentBlock, type CommandLookup, readAttachment, resolveCommand } from "../core/index.js";
import type { ImageContent } from "../core/index.js";
import { UsageError } from "./run-io.js";

export const MAX_STDIN_BYTES = 10 * 1024 * 1024;

export interface PromptInput {
	text: string;
	images: ImageContent[];
	/** What `text` is joined from: the @files' blocks, the prompt's words (where a command is named), stdin. */
	parts: { blocks: string[]; words: string; stdin: string };
	/** The @files, as read (the screen sends these rather than reading them again). */
	attached: Attachment[];
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

/**
 * Text files become `<file name="...">` blocks before the prompt; images are attached as image content. The files
 * are the @file arguments and, by the screen's rule, the @-mentions inside the words (`loom -p "explain @a.txt"`).
 */
export function buildPromptInput(files: readonly string[], words: string, stdinText: string, cwd: string): PromptInput {
	const named = files.map((file) => attach(file, cwd));
	const attached = [...named, ...mentioned(words, cwd, named)];
	const images = attached.flatMap((attachment) => ("image" in attachment ? [attachment.image] : []));
	const blocks = attached.map(attachmentBlock);
	return withWords({ text: "", images, parts: { blocks, words: words.trim(), stdin: stdinText.trimEnd() }, attached }, words);
}

/** The same input with other words in the prompt's place (a prompt template's text for the command naming it). */
export function withWords(input: PromptInput, words: string): PromptInput {
	const parts = { ...input.parts, words: words.trim() };
	const text = [...parts.blocks, parts.words, parts.stdin].filter((part) => part !== "").join("\n\n");
	return { ...input, text, parts };
}

/** The files the words' @-mentions name, besides those in `named`; what stops one is a usage error. */
function mentioned(words: string, cwd: string, named: readonly Attachment[]): Attachment[] {
	try {
		// Whether the model takes images is known later, as for the @file arguments.
		const { attached } = attachMentions("", words, cwd, { acceptsImages: true, model: "the model" }, named);
		return attached.filter((attachment) => !named.some((done) => done.path === attachment.path));
	} catch (error) {
		throw error instanceof AttachmentError ? new UsageError(error.message) : error;
	}
}

/** The @file read for the prompt; what stops it is a usage error. */
function attach(file: string, cwd: string): Attachment {
	try {
		return readAttachment(file, cwd);
	} catch (error) {
		if (!(error instanceof AttachmentError)) throw error;
		throw new UsageError(error.code === "ENOENT" ? `${error.message}${splitHint(file)}` : error.message);
	}
}

/** `loom -p "@app.ts explain this"` (one argument) names a file "app.ts explain this"; show the intended split. */
function splitHint(file: string): string {
	const match = /^(\S+)\s+(\S[\s\S]*)$/.exec(file);
	if (!match) return "";
	const [, path, words] = match;
	return ` An argument starting with @ is one file name; give the file and the question as separate arguments: loom -p @${path} ${JSON.stringify(words!.trim())}`;
}

// Print mode's prompt when its words name a command ("/fix 42 parser"): a prompt template or a skill is expanded
// as the screen expands it. Any other command has no answer to print, and an unknown name is most likely a typo
// costing a model call, so both are usage errors. Paths ("/etc/hosts …") stay prompts, and so does piped stdin.
/** Templates and skills named at most in the error about an unknown command. */
const MAX_NAMED = 12;

/** The words to send: `words` themselves, or the text of the template or skill they name. */
export async function printPrompt(commands: CommandLookup<unknown>, words: string): Promise<string> {
	const call = resolveCommand(words, commands);
	if (!call) return words;
	const command = call.definition;
	if (command?.expand) return command.expand(call.args);
	if (command) {
		throw new UsageError(
			`/${call.name} is a command, not a prompt: print mode sends prompts, expanding prompt templates and skills. ` +
				"Flags do what the session's commands do (-m, --thinking, -c, --session, --fork: loom --help); run other commands in the screen (loom) or over RPC (loom --mode rpc).",
		);
	}
	const expanding = commands.list().filter((candidate) => candidate.expand !== undefined);
	const names = expanding.slice(0, MAX_NAMED).map((candidate) => `/${candidate.name}`);
	if (expanding.length > MAX_NAMED) names.push(`and ${expanding.length - MAX_NAMED} more`);
	const known = names.length > 0 ? `Prompt templates and skills: ${names.join(", ")}.` : "There are no prompt templates or skills.";
	throw new UsageError(`Unknown command /${call.name}. ${known} To send text starting with /, pipe it on stdin.`);
}
