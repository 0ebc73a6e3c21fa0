// `loom --list-models [search]`: the models loom can use (built-in catalog and models.json), each with its
// provider, context window and whether a key for it is set. The table alone goes to stdout; what to set where no
// key is goes to stderr. The model flags count as for a run: --api-key is the key of the provider in use, and the
// model in use (an id at --base-url) is listed though no catalog names it.
import {
	formatTokens,
	isPlanProvider,
	missingApiKeyMessage,
	loadModelRegistry,
	type ModelListing,
	type ModelRegistry,
	type ModelResolver,
	ModelChoice,
	stderrLine,
	loadSettings,
	type Settings,
	stripToOneLine,
} from "../core/index.js";
import { CLI_WORDING, EXIT, optionUsageError } from "./run-io.js";
import { chooseModel, namedModelChoice, SessionOptionError } from "../sdk/index.js";
import type { CliOptions } from "./args.js";

export interface ListModelsIo {
	home: string;
	env: NodeJS.ProcessEnv;
	stdout: NodeJS.WritableStream;
	stderr: NodeJS.WritableStream;
}

export type ListModelsOptions = Pick<CliOptions, "provider" | "model" | "baseUrl" | "apiKey"> & { search: string };

const HEADER = ["MODEL", "NAME", "CONTEXT", "KEY"] as const;

/**
 * Prints the list (matching `search` when given); returns the exit code (1 when nothing matches or models.json or
 * settings.json is broken). An unknown provider or model among the flags is thrown as a usage error.
 */
export function printModelList(options: ListModelsOptions, io: ListModelsIo): number {
	let registry: ModelRegistry;
	let settings: Settings;
	try {
		registry = loadModelRegistry(io.home, io.env, CLI_WORDING);
		settings = loadSettings(io.home);
	} catch (error) {
		io.stderr.write(stderrLine(stripToOneLine((error as Error).message)));
		return EXIT.failure;
	}
	try {
		namedModelChoice(options, settings, registry);
	} catch (error) {
		if (error instanceof SessionOptionError) throw optionUsageError(error);
		throw error;
	}
	const { search } = options;
	const query = search.trim().toLowerCase();
	// A plan's models show once signed in to it, or when the search names the plan ("copilot", "chatgpt").
	const namesPlan = query !== "" && registry.providers().some((provider) => isPlanProvider(provider) && provider.includes(query));
	const resolver: ModelResolver = namesPlan
		? { resolve: (selection) => registry.resolve(selection), resolveModel: (selection) => registry.resolveModel(selection), availableModels: () => registry.availableModels(true) }
		: registry;
	const listings: ModelListing[] = new ModelChoice(resolver, chooseModel(options, settings)).availableModels();
	const shown = query === "" ? listings : listings.filter(({ model }) => `${model.provider}/${model.id} ${model.name}`.toLowerCase().includes(query));
	if (shown.length === 0) {
		const closest = registry.suggestModels(query);
		const hint = closest.length > 0 ? ` Closest known: ${closest.join(", ")}.` : "";
		io.stderr.write(stderrLine(`no known model matches "${stripToOneLine(search)}".${hint} loom --list-models lists them all.`));
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
	for (const provider of keyless) io.stderr.write(stderrLine(stripToOneLine(missingApiKeyMessage(provider, { modelsJsonPath: registry.modelsJsonPath, keyOption: CLI_WORDING.apiKey }))));
	return EXIT.ok;
}

function table(rows: string[][]): string {
	const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
	return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join("  ")).join("\n") + "\n";
}
