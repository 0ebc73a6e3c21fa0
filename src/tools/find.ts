// The find tool: paths under a folder matching a glob, .gitignore respected.
import { type Static, Type } from "@sinclair/typebox";
import {
	formatCount,
	rawBoolean,
	rawNumber,
	rawString,
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
	compactArgs,
	type ToolDefinition,
	type ToolPresentation,
} from "../core/index.js";
import { boundedOutput, compileGlob, SEARCH_RULE, searchScope, walkScope } from "./search-scope.js";

export const DEFAULT_FIND_LIMIT = 1000;

export const findSchema = Type.Object({
	pattern: Type.String({ description: "Glob to match, e.g. *.ts (a name at any depth), src/**/*.test.ts (a path), **/README*" }),
	path: Type.Optional(Type.String({ description: "Folder to search in (default: the working directory)" })),
	limit: Type.Optional(Type.Integer({ minimum: 1, description: `Most paths to return (default ${DEFAULT_FIND_LIMIT})` })),
});

export type FindToolInput = Static<typeof findSchema>;

export interface FindToolDetails {
	/** Paths returned. */
	found: number;
	/** The search stopped at `limit` paths. */
	limitReached: boolean;
	truncated: boolean;
}

const description = `Find files and folders by glob under path (default: the working directory), skipping what .gitignore excludes. A pattern without "/" matches names at any depth (*.ts); one with "/" matches paths from the folder searched (src/**/*.ts). Folders are shown with a final "/".
Returns at most limit paths (default ${DEFAULT_FIND_LIMIT}), in order, folder by folder; the output is cut at ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024} KB.`;

const presentation: ToolPresentation = {
	promptGuide: "find files and folders by glob (e.g. **/*.test.ts)",
	promptRules: [SEARCH_RULE],
	readOnly: true,
	summarizeArgs(args) {
		const pattern = rawString(args, "pattern");
		if (pattern === undefined) return compactArgs(args);
		const path = rawString(args, "path");
		return path ? `${pattern} in ${path}` : pattern;
	},
	resultLines(row) {
		const found = rawNumber(row.details, "found");
		if (row.status !== "done" || found === undefined) return undefined;
		const more = rawBoolean(row.details, "limitReached") ? " (limit reached)" : "";
		return [{ text: found === 0 ? "nothing found" : `${formatCount(found, "path")}${more}`, style: "dim" }];
	},
};

export function createFindTool(cwd: string): ToolDefinition<typeof findSchema, FindToolDetails> {
	return {
		name: "find",
		label: "Find",
		description,
		parameters: findSchema,
		...presentation,
		async execute(_toolCallId, params, signal) {
			const limit = params.limit ?? DEFAULT_FIND_LIMIT;
			const matches = await compileGlob(params.pattern);
			const scope = await searchScope(params.path, cwd);
			if (scope.kind !== "directory") throw new Error(`${params.path} is a file, not a folder: find searches folders.`);
			const paths: string[] = [];
			await walkScope(
				scope,
				(entry) => {
					if (!matches(entry.path)) return;
					paths.push(scope.show(entry.path) + (entry.kind === "directory" ? "/" : ""));
					return paths.length < limit;
				},
				{ signal, what: "find" },
			);
			const limitReached = paths.length >= limit;
			if (paths.length === 0) {
				const text = `Nothing matches ${params.pattern} in ${scope.show("")} (paths .gitignore excludes were not searched).`;
				return { content: [{ type: "text", text }], details: { found: 0, limitReached, truncated: false } };
			}
			const notes = limitReached ? [`[Stopped at ${limit} paths (limit). Narrow the pattern or path, or raise limit, to see more.]`] : [];
			const output = boundedOutput(paths, notes, "Narrow the pattern or path, or lower limit.");
			return { content: [{ type: "text", text: output.text }], details: { found: paths.length, limitReached, truncated: output.truncated } };
		},
	};
}
