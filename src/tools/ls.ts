// The ls tool: one folder's entries, with their kinds and, when asked, their sizes. Everything is listed,
// ignored and hidden entries too: a listing answers "what is here", which node_modules/ and .env are part of.
import { lstatSync } from "node:fs";
import { type Static, Type } from "@sinclair/typebox";
import type { EntryKind, ToolDefinition, ToolPresentation } from "../core/index.js";
import {
	formatCount,
	formatSize,
	rawBoolean,
	rawNumber,
	rawString,
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
} from "../core/index.js";
import { boundedOutput, SEARCH_RULE, searchScope, walkScope } from "./search-scope.js";

export const DEFAULT_LS_LIMIT = 500;

export const lsSchema = Type.Object({
	path: Type.Optional(Type.String({ description: "Folder to list (default: the working directory)" })),
	sizes: Type.Optional(Type.Boolean({ description: "Show each file's size" })),
	limit: Type.Optional(Type.Integer({ minimum: 1, description: `Most entries to return (default ${DEFAULT_LS_LIMIT})` })),
});

export type LsToolInput = Static<typeof lsSchema>;

export interface LsToolDetails {
	entries: number;
	limitReached: boolean;
	truncated: boolean;
}

const description = `List a folder's entries (default: the working directory) in name order, hidden ones included: folders end in "/", symbolic links in "@", other special files in "|". With sizes, each file's size follows its name.
Returns at most limit entries (default ${DEFAULT_LS_LIMIT}); the output is cut at ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024} KB.`;

const MARK: Record<EntryKind, string> = { file: "", directory: "/", symlink: "@", other: "|" };

const presentation: ToolPresentation = {
	promptGuide: "list a folder's entries (folders end in /)",
	promptRules: [SEARCH_RULE],
	readOnly: true,
	summarizeArgs: (args) => rawString(args, "path") || ".",
	resultLines(row) {
		const entries = rawNumber(row.details, "entries");
		if (row.status !== "done" || entries === undefined) return undefined;
		const more = rawBoolean(row.details, "limitReached") ? " (limit reached)" : "";
		return [{ text: `${formatCount(entries, "entry", "entries")}${more}`, style: "dim" }];
	},
};

function sizeOf(absolute: string): string {
	try {
		return formatSize(lstatSync(absolute).size);
	} catch {
		return "?";
	}
}

export function createLsTool(cwd: string): ToolDefinition<typeof lsSchema, LsToolDetails> {
	return {
		name: "ls",
		label: "List",
		description,
		parameters: lsSchema,
		...presentation,
		async execute(_toolCallId, params, signal) {
			const limit = params.limit ?? DEFAULT_LS_LIMIT;
			const scope = await searchScope(params.path, cwd);
			if (scope.kind !== "directory") throw new Error(`${params.path} is a file, not a folder. Read it with read.`);
			const lines: string[] = [];
			let more = false;
			await walkScope(
				scope,
				(entry) => {
					if (lines.length >= limit) {
						more = true;
						return false;
					}
					const name = entry.name + MARK[entry.kind];
					lines.push(params.sizes && entry.kind === "file" ? `${name}  ${sizeOf(entry.absolute)}` : name);
				},
				{ signal, gitignore: false, maxDepth: 1, what: "ls" },
			);
			if (lines.length === 0) {
				return { content: [{ type: "text", text: `${scope.show("")} is empty.` }], details: { entries: 0, limitReached: false, truncated: false } };
			}
			const notes = more ? [`[Showing the first ${limit} entries (limit). Raise limit to see more, or use find with a pattern.]`] : [];
			const output = boundedOutput(lines, notes, "Lower limit, or use find with a pattern.");
			return { content: [{ type: "text", text: output.text }], details: { entries: lines.length, limitReached: more, truncated: output.truncated } };
		},
	};
}
