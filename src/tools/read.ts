// The read tool: a window of a text file's lines, or an image as an image block.
import { closeSync } from "node:fs";
import { type Static, Type } from "@sinclair/typebox";
import type { AgentToolResult } from "../core/index.js";
import {
	CheckedReadError,
	openRegularFile,
	type RegularFile,
	readAt,
	readOpenFile,
	detectImageMimeType,
	type ImageMimeType,
	looksBinary,
	MAX_IMAGE_BYTES,
	SNIFF_BYTES,
	formatCount,
	formatSize,
	rawNumber,
	rawString,
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
	truncateHead,
	compactArgs,
	type ToolDefinition,
	type ToolPresentation,
	type ToolRowState,
} from "../core/index.js";
import { pathArgument, pathEffect, acceptFilePathAlias, resolveToCwd } from "./file-tool-paths.js";
import { type LineWindow, readLineWindow, textLineWindow } from "./line-window.js";
import type { TextFileAccess } from "./text-files.js";

export const readSchema = Type.Object({
	path: Type.String({ description: "Path to the file to read (relative to the working directory, or absolute)" }),
	offset: Type.Optional(Type.Integer({ minimum: 1, description: "Line number to start reading from (1-indexed)" })),
	limit: Type.Optional(Type.Integer({ minimum: 1, description: "Maximum number of lines to read" })),
});

export type ReadToolInput = Static<typeof readSchema>;

export interface ReadToolDetails {
	/** Absolute path that was read. */
	path: string;
	kind: "text" | "image";
	mimeType?: ImageMimeType;
	/** Text only: lines in the file, and the range shown (0 and 0 when nothing was shown). */
	totalLines?: number;
	startLine?: number;
	endLine?: number;
	/** Text only: more lines follow; read again from nextOffset. */
	truncated: boolean;
	nextOffset?: number;
}

const description = `Read a file. Text files come back as their lines; images (PNG, JPEG, GIF, WebP) come back as images you can see.
Output is cut at ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024} KB, whichever comes first; the text then says which lines were shown and the offset to continue from.
Use offset (1-indexed line) and limit to read part of a large file. Binary files other than images are refused.`;

/** The lines asked for (offset, limit), or undefined for the whole file. */
function askedRange(args: unknown): { start: number; end?: number } | undefined {
	const offset = rawNumber(args, "offset");
	const limit = rawNumber(args, "limit");
	if (offset === undefined && limit === undefined) return undefined;
	const start = offset ?? 1;
	return limit === undefined ? { start } : { start, end: start + limit - 1 };
}

/** ":10-59" for offset 10 and limit 50, ":10-" for an offset alone, "" for neither. */
function readRange(args: unknown): string {
	const range = askedRange(args);
	return range === undefined ? "" : `:${range.start}-${range.end ?? ""}`;
}

/**
 * How many lines came back, each fact once beside the row's path and range: "read 3 lines" (the whole file),
 * "read 120 lines of 300" (the range asked for), "read 2000 lines (1-2000 of 5000)" (other lines than asked:
 * the file was cut or shorter). Without details (an old session), the lines of the result are counted.
 */
function readSummary(row: ToolRowState): string {
	const { details } = row;
	if (rawString(details, "kind") === "image") return "read image";
	const startLine = rawNumber(details, "startLine");
	const endLine = rawNumber(details, "endLine");
	if (startLine !== undefined && endLine !== undefined) {
		if (endLine < startLine) return "no lines read";
		const count = endLine - startLine + 1;
		const lines = `read ${formatCount(count, "line")}`;
		const totalLines = rawNumber(details, "totalLines");
		if (totalLines === undefined) return `${lines} (${startLine}-${endLine})`;
		if (startLine === 1 && endLine === totalLines) return lines;
		const asked = askedRange(row.args);
		if (asked?.start === startLine && asked.end === endLine) return `${lines} of ${totalLines}`;
		return `${lines} (${startLine}-${endLine} of ${totalLines})`;
	}
	const count = (row.resultText ?? "").replace(/\n+$/, "").split("\n").filter((line, _index, all) => line !== "" || all.length > 1).length;
	return `read ${formatCount(count, "line")}`;
}

/** The row shows the path and range asked for, then how many lines came back. */
const presentation: ToolPresentation = {
	promptGuide: "read a file (text or image); use offset/limit to page through long files",
	readOnly: true,
	readsFiles: true,
	summarizeArgs(args) {
		const path = pathArgument(args);
		return path === undefined ? compactArgs(args) : `${path}${readRange(args)}`;
	},
	resultLines: (row) => (row.status === "done" ? [{ text: readSummary(row), style: "dim" }] : undefined),
	fileEffects: pathEffect("reads"),
};

/**
 * The file at `absolute`, opened once and checked on the open descriptor (a regular file): every later read uses
 * that descriptor, so a file replaced after the check (by a FIFO that would block, a device that never ends) is
 * never read. The caller closes it.
 */
function openForRead(absolute: string, shownPath: string): RegularFile {
	try {
		return openRegularFile(absolute, shownPath);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT") throw new Error(`File not found: ${shownPath} (resolved to ${absolute}).`);
		if (code === "EACCES") throw new Error(`Permission denied reading ${shownPath}.`);
		if (code === "EISDIR") throw new Error(`${shownPath} is a directory. List it with bash (ls) and read a file inside it.`);
		if (code === "ENOTREG") throw new Error(`${(error as Error).message} Use bash if you need it.`);
		throw error;
	}
}

function imageTooBig(shownPath: string, mimeType: ImageMimeType, size: number): Error {
	return new Error(
		`${shownPath} is a ${mimeType} image of ${formatSize(size)}, over the ${formatSize(MAX_IMAGE_BYTES)} limit for images. Make a smaller copy (for example with ImageMagick via bash) and read that.`,
	);
}

/** At most MAX_IMAGE_BYTES of the open file, whatever its size said when it was opened. */
function readImage(file: RegularFile, absolute: string, shownPath: string, mimeType: ImageMimeType) {
	let data: Buffer;
	try {
		data = readOpenFile(file, MAX_IMAGE_BYTES, shownPath);
	} catch (error) {
		if (error instanceof CheckedReadError && error.code === "ETOOBIG") throw imageTooBig(shownPath, mimeType, error.size ?? file.stat.size);
		throw error;
	}
	const result: AgentToolResult<ReadToolDetails> = {
		content: [
			{ type: "text", text: `Read image file ${shownPath} [${mimeType}, ${formatSize(data.length)}]` },
			{ type: "image", data: data.toString("base64"), mimeType },
		],
		details: { path: absolute, kind: "image", mimeType, truncated: false },
	};
	return result;
}

/** The text from `files` if it holds the file, else the open file's, read to its end. */
async function readText(
	file: RegularFile,
	absolute: string,
	shownPath: string,
	offset: number,
	limit: number | undefined,
	files: TextFileAccess | undefined,
	signal?: AbortSignal,
) {
	const maxLines = Math.min(limit ?? DEFAULT_MAX_LINES, DEFAULT_MAX_LINES);
	const held = await files?.readText(absolute, signal);
	const window: LineWindow =
		held !== undefined
			? await textLineWindow(held, offset - 1, maxLines, DEFAULT_MAX_BYTES)
			: await readLineWindow(file.fd, offset - 1, maxLines, DEFAULT_MAX_BYTES, signal);
	const { totalLines } = window;
	const details = (startLine: number, endLine: number, nextOffset?: number): ReadToolDetails => ({
		path: absolute,
		kind: "text",
		totalLines,
		startLine,
		endLine,
		truncated: nextOffset !== undefined,
		...(nextOffset !== undefined ? { nextOffset } : {}),
	});
	const text = (value: string, d: ReadToolDetails): AgentToolResult<ReadToolDetails> => ({
		content: [{ type: "text", text: value }],
		details: d,
	});

	if (totalLines === 0) {
		if (offset > 1) throw new Error(`Offset ${offset} is beyond the end of ${shownPath}: the file is empty (0 lines).`);
		return text(`(${shownPath} is empty)`, details(0, 0));
	}
	if (offset > totalLines) {
		throw new Error(
			`Offset ${offset} is beyond the end of ${shownPath}, which has ${formatCount(totalLines, "line")}. Use an offset from 1 to ${totalLines}.`,
		);
	}

	const cut = truncateHead(window.lines.join("\n"), { maxLines, maxBytes: DEFAULT_MAX_BYTES });
	if (cut.firstLineExceedsLimit) {
		const next = offset + 1 <= totalLines ? offset + 1 : undefined;
		const message =
			`[Line ${offset} of ${shownPath} is ${formatSize(window.firstLineBytes)}, over the ${formatSize(DEFAULT_MAX_BYTES)} limit, so it is not shown. ` +
			`Read a slice of it with bash, for example: sed -n '${offset}p' ${JSON.stringify(absolute)} | head -c ${DEFAULT_MAX_BYTES}` +
			(next !== undefined ? `. Use offset=${next} to continue after it.]` : "]");
		return text(message, details(offset, offset - 1, next));
	}

	const endLine = offset + cut.outputLines - 1;
	let output = cut.content;
	let nextOffset: number | undefined;
	if (endLine < totalLines) {
		nextOffset = endLine + 1;
		const stoppedBy =
			cut.truncatedBy === "bytes"
				? ` (${formatSize(DEFAULT_MAX_BYTES)} limit)`
				: cut.truncatedBy === "lines" && maxLines === DEFAULT_MAX_LINES && limit === undefined
					? ` (${DEFAULT_MAX_LINES} line limit)`
					: "";
		output += `\n\n[Showing lines ${offset}-${endLine} of ${totalLines}${stoppedBy}. Use offset=${nextOffset} to continue.]`;
	}
	return text(output, details(offset, endLine, nextOffset));
}

/** With `options.files`, a text file's lines come from there (an editor's buffer); images are read from disk. */
export function createReadTool(cwd: string, options: { files?: TextFileAccess } = {}): ToolDefinition<typeof readSchema, ReadToolDetails> {
	return {
		name: "read",
		label: "Read",
		description,
		parameters: readSchema,
		prepareArguments: acceptFilePathAlias,
		...presentation,
		async execute(_toolCallId, params, signal) {
			if (signal?.aborted) throw new Error("Read aborted.");
			const offset = params.offset ?? 1;
			if (!Number.isInteger(offset) || offset < 1) throw new Error(`offset must be a whole number from 1, got ${params.offset}.`);
			if (params.limit !== undefined && (!Number.isInteger(params.limit) || params.limit < 1)) {
				throw new Error(`limit must be a whole number from 1, got ${params.limit}.`);
			}
			const absolute = resolveToCwd(params.path, cwd);
			const file = openForRead(absolute, params.path);
			try {
				const head = readAt(file.fd, 0, SNIFF_BYTES);
				const mimeType = detectImageMimeType(head);
				if (mimeType) return readImage(file, absolute, params.path, mimeType);
				if (looksBinary(head)) {
					throw new Error(
						`${params.path} is a binary file (${formatSize(file.stat.size)}), not text; it is not shown. Inspect it with bash (for example: file, xxd | head).`,
					);
				}
				return await readText(file, absolute, params.path, offset, params.limit, options.files, signal);
			} finally {
				closeSync(file.fd);
			}
		},
	};
}
