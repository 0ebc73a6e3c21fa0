// What the lsp tool asks a file's language server, answered as lines the model reads: locations as
// `path:line:col` (1-based) with the line's text, hover as text, symbols as `path:line:col kind name`.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Diagnostic, DocumentSymbol, Hover, Location, LocationLink, SymbolInformation } from "vscode-languageserver-protocol";
import { capped, diagnosticLine } from "./diagnostic-lines.js";
import type { LanguageServers } from "./language-servers.js";
import { uriOf } from "./server-specs.js";

export type LspOperation = "definition" | "references" | "hover" | "symbols" | "diagnostics";

export interface LspQuery {
	operation: LspOperation;
	path: string;
	/** 1-based; required by definition, references and hover. */
	line?: number;
	column?: number;
	/** symbols: a name to look for across the workspace instead of the file's own symbols. */
	query?: string;
}

/** How long a query waits for its server (a cold start included). */
const QUERY_MS = 30_000;
/** Most result lines before the tool's own cut. */
const MAX_RESULTS = 200;

const SYMBOL_KINDS = ["", "file", "module", "namespace", "package", "class", "method", "property", "field", "constructor", "enum", "interface", "function", "variable", "constant", "string", "number", "boolean", "array", "object", "key", "null", "enum member", "struct", "event", "operator", "type parameter"];

export async function runLspQuery(servers: LanguageServers, query: LspQuery): Promise<string> {
	const spec = servers.specOf(query.path);
	const file = servers.absolute(query.path);
	const client = await servers.client(spec, file, Date.now() + QUERY_MS);
	if (!client) throw new Error(`The ${spec.language} language server is not running (see the notices for why).`);
	let text: string;
	try {
		text = readFileSync(file, "utf8");
	} catch (error) {
		throw new Error(`Cannot read ${query.path}: ${(error as Error).message}`);
	}
	// The server answers about the file as it is on disk.
	const diagnostics = client.textOf(file) === text ? await client.currentDiagnostics(file) : await client.sync(file, text, spec.waitMs * 3);
	const textDocument = { uri: uriOf(file) };
	const position = () => {
		if (query.line === undefined || query.column === undefined) throw new Error(`${query.operation} needs line and column (1-based) of the name.`);
		return { line: query.line - 1, character: query.column - 1 };
	};
	switch (query.operation) {
		case "diagnostics": {
			const lines = (diagnostics ?? []).map((diagnostic: Diagnostic) => diagnosticLine(servers.shown(file), diagnostic));
			return lines.length === 0 ? `No diagnostics in ${servers.shown(file)}.` : capped(lines, MAX_RESULTS).join("\n");
		}
		case "definition": {
			const found = await client.request<Location | Location[] | LocationLink[] | null>("textDocument/definition", { textDocument, position: position() }, QUERY_MS);
			return locationLines(servers, found, "No definition found.");
		}
		case "references": {
			const found = await client.request<Location[] | null>("textDocument/references", { textDocument, position: position(), context: { includeDeclaration: true } }, QUERY_MS);
			return locationLines(servers, found, "No references found.");
		}
		case "hover": {
			const found = await client.request<Hover | null>("textDocument/hover", { textDocument, position: position() }, QUERY_MS);
			const shown = found ? hoverText(found.contents).trim() : "";
			return shown === "" ? "Nothing to show at that position." : shown;
		}
		case "symbols": {
			if (query.query !== undefined && query.query !== "") {
				const found = await client.request<SymbolInformation[] | null>("workspace/symbol", { query: query.query }, QUERY_MS);
				const lines = (found ?? []).map((symbol) => `${locationText(servers, symbol.location)} ${SYMBOL_KINDS[symbol.kind] ?? "symbol"} ${symbol.name}`);
				return lines.length === 0 ? `No symbols match "${query.query}".` : capped(lines, MAX_RESULTS).join("\n");
			}
			const found = await client.request<DocumentSymbol[] | SymbolInformation[] | null>("textDocument/documentSymbol", { textDocument }, QUERY_MS);
			const lines: string[] = [];
			const walk = (symbols: readonly DocumentSymbol[], depth: number) => {
				for (const symbol of symbols) {
					const at = symbol.selectionRange.start;
					lines.push(`${servers.shown(file)}:${at.line + 1}:${at.character + 1} ${"  ".repeat(depth)}${SYMBOL_KINDS[symbol.kind] ?? "symbol"} ${symbol.name}`);
					walk(symbol.children ?? [], depth + 1);
				}
			};
			for (const symbol of found ?? []) {
				if ("location" in symbol) lines.push(`${locationText(servers, symbol.location)} ${SYMBOL_KINDS[symbol.kind] ?? "symbol"} ${symbol.name}`);
				else walk([symbol], 0);
			}
			return lines.length === 0 ? `No symbols in ${servers.shown(file)}.` : capped(lines, MAX_RESULTS).join("\n");
		}
	}
}

function locationLines(servers: LanguageServers, found: Location | Location[] | LocationLink[] | null | undefined, none: string): string {
	const list = found === null || found === undefined ? [] : Array.isArray(found) ? found : [found];
	const locations = list.map((entry) => ("targetUri" in entry ? { uri: entry.targetUri, range: entry.targetSelectionRange } : entry));
	if (locations.length === 0) return none;
	return capped(
		locations.map((location) => `${locationText(servers, location)}${lineText(location)}`),
		MAX_RESULTS,
	).join("\n");
}

function locationText(servers: LanguageServers, location: Location): string {
	const path = location.uri.startsWith("file:") ? servers.shown(fileURLToPath(location.uri)) : location.uri;
	return `${path}:${location.range.start.line + 1}:${location.range.start.character + 1}`;
}

/** The location's line, trimmed, after a colon; nothing when it cannot be read. */
function lineText(location: Location): string {
	try {
		const line = readFileSync(fileURLToPath(location.uri), "utf8").split("\n")[location.range.start.line]?.trim();
		return line ? `: ${line.length > 200 ? `${line.slice(0, 200)}…` : line}` : "";
	} catch {
		return "";
	}
}

function hoverText(contents: Hover["contents"]): string {
	if (typeof contents === "string") return contents;
	if (Array.isArray(contents)) return contents.map((part) => hoverText(part)).join("\n\n");
	return contents.value;
}
