// An MCP tool result as content the model reads: text as text, images as images, resources as their text (or
// a line saying what they are), resource links and audio as a line each. Text past read's limits is cut to its
// start, like read's output, and the whole of it is kept in a file whose path the result gives.
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
	formatCount,
	formatSize,
	textFromContent,
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
	truncateHead,
	toolNameCharacters,
	outputFolder,
	errorMessage,
	isRecord,
} from "../../core/index.js";
import type { ImageContent, TextContent } from "../../core/index.js";

/** The parts of a tools/call result loom reads; everything is checked, since it comes from a server. */
export interface McpCallResult {
	content?: unknown;
	structuredContent?: unknown;
	isError?: unknown;
}

export interface McpToolDetails {
	server: string;
	tool: string;
	/** The text was cut; the whole of it is in fullOutputPath (when it could be written). */
	truncated?: boolean;
	fullOutputPath?: string;
}

export interface ConvertedResult {
	content: (TextContent | ImageContent)[];
	details: McpToolDetails;
	isError: boolean;
}

const TEXT_MIME = /^(text\/|application\/(json|xml|javascript|x-yaml|yaml|toml|x-sh|.*\+json|.*\+xml)$)/;

/** The model's view of a result; `server` and `tool` name it in messages and in the full output's file name. */
export async function convertToolResult(result: McpCallResult, server: string, tool: string): Promise<ConvertedResult> {
	const parts = Array.isArray(result.content) ? result.content.flatMap(partContent) : [];
	if (!parts.some((part) => part.type === "text") && result.structuredContent !== undefined) {
		parts.unshift({ type: "text", text: JSON.stringify(result.structuredContent, null, 2) });
	}
	if (parts.length === 0) parts.push({ type: "text", text: "(no output)" });
	const details: McpToolDetails = { server, tool };
	return { content: await fitText(parts, details), details, isError: result.isError === true };
}

/** One content block of a result as the model's content (a block loom cannot read becomes a line saying so). */
function partContent(part: unknown): (TextContent | ImageContent)[] {
	if (!isRecord(part)) return [];
	switch (part.type) {
		case "text":
			return typeof part.text === "string" ? [text(part.text)] : [];
		case "image":
			return typeof part.data === "string" && typeof part.mimeType === "string"
				? [{ type: "image", data: part.data, mimeType: part.mimeType }]
				: [text("[image: missing data]")];
		case "audio":
			return [text(`[audio${mimeNote(part.mimeType)}${sizeNote(part.data)}: not shown, loom cannot play audio]`)];
		case "resource":
			return resourceContent(isRecord(part.resource) ? part.resource : {});
		case "resource_link": {
			const description = typeof part.description === "string" ? `: ${part.description}` : "";
			return [text(`[resource link: ${String(part.name ?? part.uri)} <${String(part.uri)}>${mimeNote(part.mimeType)}${description}]`)];
		}
		default:
			return [text(JSON.stringify(part))];
	}
}

function resourceContent(resource: Record<string, unknown>): (TextContent | ImageContent)[] {
	const uri = String(resource.uri ?? "");
	const mimeType = typeof resource.mimeType === "string" ? resource.mimeType : undefined;
	if (typeof resource.text === "string") return [text(`[resource <${uri}>${mimeNote(mimeType)}]\n${resource.text}`)];
	if (typeof resource.blob !== "string") return [text(`[resource <${uri}>: empty]`)];
	if (mimeType?.startsWith("image/")) return [text(`[resource <${uri}>${mimeNote(mimeType)}]`), { type: "image", data: resource.blob, mimeType }];
	if (mimeType && TEXT_MIME.test(mimeType)) return [text(`[resource <${uri}>${mimeNote(mimeType)}]\n${Buffer.from(resource.blob, "base64").toString("utf8")}`)];
	return [text(`[resource <${uri}>${mimeNote(mimeType)}${sizeNote(resource.blob)}: binary, not shown]`)];
}

/**
 * The text parts joined and cut to read's limits when they are longer (images stay, after it); the whole text
 * is then written to a file in loom's output folder, whose path the cut text ends with.
 */
async function fitText(parts: (TextContent | ImageContent)[], details: McpToolDetails): Promise<(TextContent | ImageContent)[]> {
	const whole = textFromContent(parts);
	const cut = truncateHead(whole, { maxLines: DEFAULT_MAX_LINES, maxBytes: DEFAULT_MAX_BYTES });
	if (!cut.truncated) return parts;
	details.truncated = true;
	let where: string;
	try {
		const file = join(outputFolder(), `mcp-${toolNameCharacters(details.server)}-${toolNameCharacters(details.tool)}-${randomBytes(4).toString("hex")}.txt`);
		await writeFile(file, whole, { mode: 0o600 });
		details.fullOutputPath = file;
		where = `Full output: ${file}`;
	} catch (error) {
		where = `The full output could not be saved (${errorMessage(error)})`;
	}
	const shown = cut.firstLineExceedsLimit
		? `nothing (its first line alone is over ${formatSize(cut.maxBytes)})`
		: `the first ${cut.outputLines} lines (${formatSize(cut.outputBytes)})`;
	const notice = `[Output cut: showing ${shown} of ${formatCount(cut.totalLines, "line")} (${formatSize(cut.totalBytes)}). ${where}]`;
	const images = parts.filter((part) => part.type === "image");
	return [text(cut.content === "" ? notice : `${cut.content}\n\n${notice}`), ...images];
}

function text(value: string): TextContent {
	return { type: "text", text: value };
}

function mimeNote(mimeType: unknown): string {
	return typeof mimeType === "string" ? ` (${mimeType})` : "";
}

function sizeNote(base64: unknown): string {
	return typeof base64 === "string" ? `, ${formatSize(Buffer.byteLength(base64, "base64"))}` : "";
}
