// The lsp tool: asks the language server covering a file (definition, references, hover, symbols, diagnostics).
// The servers are the session's (settings' lsp), given in the tool context; their answers come as lines, cut
// like the search tools' output.
import { type Static, Type } from "@sinclair/typebox";
import { rawNumber, rawString, type ToolDefinition, type ToolPresentation } from "../core/index.js";
import { boundedOutput } from "./search-scope.js";

export const LSP_OPERATIONS = ["definition", "references", "hover", "symbols", "diagnostics"] as const;

export const lspSchema = Type.Object({
	operation: Type.Union(
		LSP_OPERATIONS.map((operation) => Type.Literal(operation)),
		{ description: "definition, references or hover of the name at line:column; symbols of the file (or, with query, of the workspace); diagnostics of the file" },
	),
	path: Type.String({ description: "The file (relative to the working directory, or absolute)" }),
	line: Type.Optional(Type.Integer({ minimum: 1, description: "1-based line of the name (definition, references, hover)" })),
	column: Type.Optional(Type.Integer({ minimum: 1, description: "1-based column of the name (definition, references, hover)" })),
	query: Type.Optional(Type.String({ description: "symbols: a name to look for across the workspace" })),
});

export type LspToolInput = Static<typeof lspSchema>;

/** The session's language servers, as the tool asks them: the answer's text, or a throw saying why there is none. */
export interface LanguageServerQueries {
	query(input: LspToolInput): Promise<string>;
}

const description = `Ask the language server of a file: definition, references or hover of the name at line:column (1-based), the file's symbols (or the workspace's matching query), or its diagnostics. Locations come as path:line:col lines.`;

const presentation: ToolPresentation = {
	promptGuide: "ask a file's language server: definition, references, hover, symbols, diagnostics",
	readOnly: true,
	summarizeArgs(args) {
		const line = rawNumber(args, "line");
		const column = rawNumber(args, "column");
		const at = line !== undefined ? `:${line}${column !== undefined ? `:${column}` : ""}` : "";
		return `${rawString(args, "operation") ?? ""} ${rawString(args, "path") ?? ""}${at}`.trim();
	},
	fileEffects: (args) => ({ reads: [rawString(args, "path") ?? ""].filter((path) => path !== ""), changes: [] }),
};

export function createLspTool(_cwd: string, context: { languageServers?: LanguageServerQueries } = {}): ToolDefinition<typeof lspSchema> {
	return {
		name: "lsp",
		label: "Language server",
		description,
		parameters: lspSchema,
		...presentation,
		async execute(_toolCallId, params) {
			if (!context.languageServers) throw new Error("This session has no language servers.");
			const answer = await context.languageServers.query(params);
			const output = boundedOutput(answer.split("\n"), [], "Ask about a narrower name or file.");
			return { content: [{ type: "text", text: output.text }], details: { truncated: output.truncated } };
		},
	};
}
