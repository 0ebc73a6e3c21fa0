// The edit tool: exact (or tolerant) replacements of unique text, atomic, inside the file-mutation queue.
import fs from "node:fs/promises";
import { type Static, Type } from "@sinclair/typebox";
import {
	specialFileKind,
	atomicWriteFile,
	looksBinary,
	FileChangedError,
	type FileSnapshot,
	readSnapshot,
	formatCount,
	rawString,
	capLines,
	tailLines,
} from "../core/index.js";
import type { StyledLine, ToolDefinition, ToolPresentation } from "../core/index.js";
import { type AppliedEdit, applyEdits, type EditSpec } from "./edit-apply.js";
import { describeChange } from "./edit-diff.js";
import { pathEffect, READ_BEFORE_CHANGE, summarizePath, resolveToCwd } from "./file-tool-paths.js";
import { withFileMutationQueue } from "./file-mutation-queue.js";
import type { TextFileAccess } from "./text-files.js";

export const editSchema = Type.Object({
	path: Type.String({ description: "Path to the file to edit (relative to the working directory, or absolute)" }),
	edits: Type.Array(
		Type.Object({
			oldText: Type.String({ description: "Exact text to replace; must occur exactly once in the original file" }),
			newText: Type.String({ description: "Text to put in its place" }),
		}),
		{ minItems: 1, description: "Replacements, all matched against the original file; they must not overlap" },
	),
});

export type EditToolInput = Static<typeof editSchema>;

export interface EditToolDetails {
	/** Absolute path edited. */
	path: string;
	/** Unified diff of the change (LF line endings, whatever the file uses). */
	diff: string;
	/** 1-indexed line of the new file where the first change is. */
	firstChangedLine: number;
	replacements: number;
	/** Edits that needed tolerant matching (quotes, dashes, spaces, trailing whitespace). */
	tolerantMatches: number;
}

const description = `Edit a file by replacing exact text. Each edits[i].oldText must occur exactly once in the file; it is replaced by edits[i].newText.
All edits are matched against the original file (not one after another), must not overlap, and apply all or nothing.
Copy oldText from the file exactly, with enough surrounding lines to be unique. Keep oldText small. To create a file or rewrite it whole, use write.`;

const UTF8_BOM = "\uFEFF";
/** Reads of a file that another program keeps changing, before the edit gives up. */
const MAX_EDIT_ATTEMPTS = 5;

/** A unified diff's lines, from the first hunk on (the file header says nothing the row does not). */
export function diffLines(diff: string): StyledLine[] {
	const lines = diff.replace(/\n+$/, "").split("\n");
	const firstHunk = lines.findIndex((line) => line.startsWith("@@"));
	return lines.slice(Math.max(0, firstHunk)).map((line) => {
		if (line.startsWith("+++") || line.startsWith("---")) return { text: line, style: "dim" as const };
		if (line.startsWith("+")) return { text: line, style: "added" as const };
		if (line.startsWith("-")) return { text: line, style: "removed" as const };
		if (line.startsWith("@@")) return { text: line, style: "hunk" as const };
		return { text: line, style: "dim" as const };
	});
}

/** The row shows the path, then the diff of the change. */
const presentation: ToolPresentation = {
	promptGuide: "replace exact text in an existing file; each oldText must match once; several edits per call",
	promptRules: [READ_BEFORE_CHANGE, "Prefer edit for changes to existing files; rewrite a whole file only when most of it changes."],
	summarizeArgs: summarizePath,
	resultLines(row, max) {
		if (row.status !== "done") return undefined;
		const diff = rawString(row.details, "diff");
		return diff ? capLines(diffLines(diff), max) : tailLines(row.resultText, Math.min(3, max), "dim");
	},
	fileEffects: pathEffect("changes"),
};

/** Accepts the legacy flat form { path, oldText, newText } and edits sent as a JSON string. */
export function prepareEditArguments(args: unknown): unknown {
	if (args === null || typeof args !== "object" || Array.isArray(args)) return args;
	const input: Record<string, unknown> = { ...(args as Record<string, unknown>) };
	if (input.path === undefined && typeof input.file_path === "string") {
		input.path = input.file_path;
		delete input.file_path;
	}
	if (typeof input.edits === "string") {
		try {
			input.edits = JSON.parse(input.edits);
		} catch {
			// Left as a string: validation then reports that edits must be an array.
		}
	}
	if (input.edits !== null && typeof input.edits === "object" && !Array.isArray(input.edits)) input.edits = [input.edits];
	const oldText = input.oldText ?? input.old_string;
	const newText = input.newText ?? input.new_string;
	if (typeof oldText === "string" && typeof newText === "string") {
		const flat = { oldText, newText };
		input.edits = Array.isArray(input.edits) ? [...input.edits, flat] : [flat];
		for (const key of ["oldText", "newText", "old_string", "new_string"]) delete input[key];
	}
	return input;
}

/** The file's bytes and the open file they came from, so the write can tell whether anyone changed it since. */
async function readForEdit(absolute: string, shownPath: string): Promise<{ bytes: Buffer; snapshot: FileSnapshot }> {
	return checkEditable(absolute, shownPath, () => readSnapshot(absolute));
}

/** Runs `then` on a regular file only; a missing file says to use write. */
async function checkEditable<T>(absolute: string, shownPath: string, then: () => Promise<T>): Promise<T> {
	try {
		const stat = await fs.stat(absolute);
		if (stat.isDirectory()) throw new Error(`${shownPath} is a directory, not a file.`);
		// Reading a FIFO waits for a writer, a device may never end: only regular files are edited.
		if (!stat.isFile()) throw new Error(`${shownPath} is not a regular file (it is ${specialFileKind(stat)}); edit changes only regular files.`);
		return await then();
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") {
			throw new Error(`File not found: ${shownPath} (resolved to ${absolute}). To create a new file use write.`);
		}
		throw error;
	}
}

function decodeText(bytes: Buffer, shownPath: string): string {
	if (looksBinary(bytes)) throw new Error(`${shownPath} is a binary file; edit only changes text files.`);
	try {
		return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
	} catch {
		throw new Error(
			`${shownPath} is not valid UTF-8, so editing it could corrupt it; nothing was changed. Use bash (for example sed or iconv) instead.`,
		);
	}
}

/** The loop validates arguments against the schema; this guards direct callers with a readable error. */
function checkEdits(edits: unknown): EditSpec[] {
	if (!Array.isArray(edits) || edits.length === 0) {
		throw new Error("edits must be a non-empty array of { oldText, newText }.");
	}
	edits.forEach((edit, index) => {
		if (typeof edit?.oldText !== "string" || typeof edit?.newText !== "string") {
			throw new Error(`edits[${index}] must have string oldText and newText.`);
		}
	});
	return edits as EditSpec[];
}

interface PlannedEdit {
	bom: string;
	original: string;
	content: string;
	applied: AppliedEdit[];
}

/** The file's edited text, worked out from its bytes without writing; throws what the model must fix. */
function planEdit(bytes: Buffer, shownPath: string, edits: readonly EditSpec[]): PlannedEdit {
	return planText(decodeText(bytes, shownPath), shownPath, edits);
}

/** planEdit of a text already decoded (an editor's buffer). */
function planText(raw: string, shownPath: string, edits: readonly EditSpec[]): PlannedEdit {
	const bom = raw.startsWith(UTF8_BOM) ? UTF8_BOM : "";
	const original = raw.slice(bom.length);
	return { bom, original, ...applyEdits(original, edits, shownPath) };
}

function planDiff(shownPath: string, plan: PlannedEdit): ReturnType<typeof describeChange> {
	const ranges = plan.applied.map((edit) => ({ oldStart: edit.start, oldEnd: edit.end, newLength: edit.newLength }));
	return describeChange(shownPath, plan.original, plan.content, ranges);
}

async function applyAndWrite(
	absolute: string,
	shownPath: string,
	bytes: Buffer,
	snapshot: FileSnapshot,
	edits: EditSpec[],
	signal: AbortSignal | undefined,
): Promise<PlannedEdit> {
	const plan = planEdit(bytes, shownPath, edits);
	if (signal?.aborted) throw new Error(`Edit of ${shownPath} aborted; the file was not changed.`);
	await atomicWriteFile(absolute, plan.bom + plan.content, { unchangedSince: snapshot });
	return plan;
}

/**
 * The edit of the text `files` holds (an editor's buffer), written back there; the editor keeps concurrent changes
 * apart. Undefined when `files` declines the file: it is edited on disk.
 */
async function editThrough(
	files: TextFileAccess,
	absolute: string,
	shownPath: string,
	edits: EditSpec[],
	signal: AbortSignal | undefined,
): Promise<PlannedEdit | undefined> {
	const text = await checkEditable(absolute, shownPath, () => files.readText(absolute, signal));
	if (text === undefined) return undefined;
	const plan = planText(text, shownPath, edits);
	if (signal?.aborted) throw new Error(`Edit of ${shownPath} aborted; the file was not changed.`);
	await files.writeText(absolute, plan.bom + plan.content, signal);
	return plan;
}

/** With `options.files`, the file's text is read from and written to there (an editor's buffer). */
export function createEditTool(cwd: string, options: { files?: TextFileAccess } = {}): ToolDefinition<typeof editSchema, EditToolDetails> {
	return {
		name: "edit",
		label: "Edit",
		description,
		parameters: editSchema,
		prepareArguments: prepareEditArguments,
		...presentation,
		async previewChange(args) {
			const params = args as EditToolInput;
			const edits = checkEdits(params.edits);
			const absolute = resolveToCwd(params.path, cwd);
			const { files } = options;
			const held = files ? await checkEditable(absolute, params.path, () => files.readText(absolute)) : undefined;
			let plan: PlannedEdit;
			if (held !== undefined) plan = planText(held, params.path, edits);
			else {
				const { bytes, snapshot } = await readForEdit(absolute, params.path);
				await snapshot.handle.close();
				plan = planEdit(bytes, params.path, edits);
			}
			return diffLines(planDiff(params.path, plan).diff);
		},
		async execute(_toolCallId, params, signal) {
			const absolute = resolveToCwd(params.path, cwd);
			const edits = checkEdits(params.edits);
			return withFileMutationQueue(absolute, async () => {
				// Another program may write the file meanwhile: the edit is applied to what is on disk when it is
				// written back, re-read and re-applied if the file changed, never written over the other change.
				let change = options.files ? await editThrough(options.files, absolute, params.path, edits, signal) : undefined;
				for (let attempt = 1; !change; attempt++) {
					if (signal?.aborted) throw new Error(`Edit of ${params.path} aborted; the file was not changed.`);
					const { bytes, snapshot } = await readForEdit(absolute, params.path);
					try {
						change = await applyAndWrite(absolute, params.path, bytes, snapshot, edits, signal);
					} catch (error) {
						if (!(error instanceof FileChangedError)) throw error;
						if (attempt === MAX_EDIT_ATTEMPTS) {
							throw new Error(
								`${params.path} changed on disk while editing (another program kept writing it); nothing was changed. Read it again, then retry the edit.`,
							);
						}
					} finally {
						await snapshot.handle.close();
					}
				}
				const { diff, firstChangedLine } = planDiff(params.path, change);
				const tolerantMatches = change.applied.filter((edit) => edit.level === "tolerant").length;
				const count = change.applied.length;
				const note = tolerantMatches > 0 ? ` (${tolerantMatches} matched after normalising quotes, dashes or whitespace)` : "";
				return {
					content: [{ type: "text" as const, text: `Edited ${params.path}: ${formatCount(count, "replacement")}${note}.` }],
					details: { path: absolute, diff, firstChangedLine, replacements: count, tolerantMatches },
				};
			});
		},
	};
}
