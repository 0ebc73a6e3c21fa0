// The write tool: create or overwrite a whole file, atomically, inside the file-mutation queue.
import fs from "node:fs/promises";
import { dirname } from "node:path";
import { type Static, Type } from "@sinclair/typebox";
import {
	CheckedReadError,
	readCheckedFile,
	specialFileKind,
	atomicWriteFile,
	formatSize,
	rawNumber,
	tailLines,
} from "../core/index.js";
import type { StyledLine, ToolDefinition, ToolPresentation } from "../core/index.js";
import { diffLines } from "./edit.js";
import { describeChange } from "./edit-diff.js";
import { withFileMutationQueue } from "./file-mutation-queue.js";
import { pathEffect, READ_BEFORE_CHANGE, summarizePath, acceptFilePathAlias, resolveToCwd } from "./file-tool-paths.js";
import type { TextFileAccess } from "./text-files.js";

export const writeSchema = Type.Object({
	path: Type.String({ description: "Path to the file to write (relative to the working directory, or absolute)" }),
	content: Type.String({ description: "The complete new content of the file" }),
});

export type WriteToolInput = Static<typeof writeSchema>;

export interface WriteToolDetails {
	/** Absolute path written. */
	path: string;
	/** UTF-8 size of the content written. */
	bytes: number;
	/** The file did not exist before. */
	created: boolean;
}

const description = `Write a file: creates it (and missing parent directories) or overwrites it completely with content.
The write is atomic. To change part of an existing file, prefer edit, which does not need the whole content.`;

/** The row shows the path, then the size written. */
const presentation: ToolPresentation = {
	promptGuide: "create a file or replace a whole file; creates parent directories",
	promptRules: [READ_BEFORE_CHANGE],
	summarizeArgs: summarizePath,
	resultLines(row) {
		if (row.status !== "done") return undefined;
		const bytes = rawNumber(row.details, "bytes");
		return bytes !== undefined ? [{ text: `wrote ${formatSize(bytes)}`, style: "dim" }] : tailLines(row.resultText, 1, "dim");
	},
	fileEffects: pathEffect("changes"),
};

/** A file bigger than this is not diffed for an approval question; its size is shown instead. */
const MAX_PREVIEW_BYTES = 1024 * 1024;

function replacesAll(shownPath: string, size: number, content: string): StyledLine[] {
	return [{ text: `replaces all ${formatSize(size)} of ${shownPath} with ${formatSize(Buffer.byteLength(content))}`, style: "warning" }];
}

/** The diff writing `content` would make, worked out without writing: every line added for a new file. */
async function previewWrite(absolute: string, shownPath: string, content: string): Promise<StyledLine[]> {
	let before = "";
	try {
		const stat = await fs.stat(absolute);
		if (!stat.isFile()) return [{ text: `${shownPath} is not a regular file (it is ${specialFileKind(stat)}).`, style: "warning" }];
		if (stat.size > MAX_PREVIEW_BYTES) return replacesAll(shownPath, stat.size, content);
		// Checked again as it is read: it may have been replaced since.
		before = readCheckedFile(absolute, { maxBytes: MAX_PREVIEW_BYTES, label: shownPath }).toString("utf8");
	} catch (error) {
		if (error instanceof CheckedReadError && error.code === "ETOOBIG") return replacesAll(shownPath, error.size ?? MAX_PREVIEW_BYTES, content);
		if (error instanceof CheckedReadError && error.code !== "ENOENT") return [{ text: error.message, style: "warning" }];
		if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
	}
	if (before === content) return [{ text: `no change: ${shownPath} already holds this content`, style: "dim" }];
	const { diff } = describeChange(shownPath, before, content, [{ oldStart: 0, oldEnd: before.length, newLength: content.length }]);
	return diffLines(diff);
}

async function exists(filePath: string): Promise<boolean> {
	try {
		await fs.access(filePath);
		return true;
	} catch {
		return false;
	}
}

/** With `options.files`, the text is written there (an editor's buffer, which saves it) instead of to disk. */
export function createWriteTool(cwd: string, options: { files?: TextFileAccess } = {}): ToolDefinition<typeof writeSchema, WriteToolDetails> {
	return {
		name: "write",
		label: "Write",
		description,
		parameters: writeSchema,
		prepareArguments: acceptFilePathAlias,
		...presentation,
		previewChange(args) {
			const params = args as WriteToolInput;
			return previewWrite(resolveToCwd(params.path, cwd), params.path, params.content);
		},
		async execute(_toolCallId, params, signal) {
			const absolute = resolveToCwd(params.path, cwd);
			return withFileMutationQueue(absolute, async () => {
				// Checked inside the queue: an abort while waiting for earlier writes must not write.
				if (signal?.aborted) throw new Error(`Write to ${params.path} aborted; the file was not changed.`);
				const created = !(await exists(absolute));
				if (options.files) {
					await fs.mkdir(dirname(absolute), { recursive: true });
					await options.files.writeText(absolute, params.content, signal);
				} else await atomicWriteFile(absolute, params.content);
				const bytes = Buffer.byteLength(params.content, "utf8");
				return {
					content: [{ type: "text" as const, text: `${created ? "Created" : "Wrote"} ${params.path} (${bytes} bytes).` }],
					details: { path: absolute, bytes, created },
				};
			});
		},
	};
}
