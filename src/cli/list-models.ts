// `loom --list-models [search]`: the models loom can use (built-in catalog and models.json), each with its
// provider, context window and whether a key for it is set, and what to set where none is.
import { formatTokens } from "../core/format.js";
import { loadModelRegistry, missingApiKeyMessage, type ModelListing } from "../core/llm/index.js";
import { stripToOneLine } from "../core/text/sanitize-terminal.js";
import { EXIT } from "./usage-error.js";

export interface ListModelsIo {
	home: string;
	env: NodeJS.ProcessEnv;
	stdout: NodeJS.WritableStream;
	stderr: NodeJS.WritableStream;
}

const HEADER = ["MODEL", "NAME", "CONTEXT", "KEY"] as const;

/** Prints the list (matching `search` when given); returns the exit code (1 when nothing matches or models.json is broken). */
export function printModelList(search: string, io: ListModelsIo): number {
	let listings: ModelListing[];
	let registry: ReturnType<typeof loadModelRegistry>;
	try {
		registry = loadModelRegistry(io.home, io.env);
		listings = registry.availableModels();
	} catch (error) {
		io.stderr.write(`loom: ${stripToOneLine((error as Error).message)}\n`);
		return EXIT.failure;
	}
	const query = search.trim().toLowerCase();
	const shown = query === "" ? listings : listings.filter(({ model }) => `${model.provider}/${model.id} ${model.name}`.toLowerCase().includes(query));
	if (shown.length === 0) {
		const closest = registry.suggestModels(query);
		const hint = closest.length > 0 ? ` Closest known: ${closest.join(", ")}.` : "";
		io.stderr.write(`loom: no known model matches "${stripToOneLine(search)}".${hint} loom --list-models lists them all.\n`);
		return EXIT.failure;
	}
	// Names and ids may come from models.json: one line each, no escape sequences.
	const rows = shown.map(({ model, hasKey }) => [
		stripToOneLine(`${model.provider}/${model.id}`),
		stripToOneLine(model.name),
		formatTokens(model.contextWindow),
		hasKey ? "set" : "missing",
	]);
	io.stdout.write(table([[...HEADER], ...rows]));
	const keyless = [...new Set(shown.filter((listing) => !listing.hasKey).map((listing) => listing.model.provider))];
	for (const provider of keyless) io.stdout.write(`${stripToOneLine(missingApiKeyMessage(provider, { modelsJsonPath: registry.modelsJsonPath }))}\n`);
	return EXIT.ok;
}

function table(rows: string[][]): string {
	const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
	return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join("  ")).join("\n") + "\n";
}
