// Reads and checks ~/.loom/models.json: user-defined providers and models. A broken file is reported with
// its path and the exact field at fault, never silently ignored.
import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { parseJson, readConfigText } from "../../lib/index.js";
import { apiProvider, knownApis } from "../providers/index.js";
import { BUILTIN_PROVIDERS } from "../models-catalog.js";

/** Far above any real models.json; a bigger one is a mistake (or not a models.json at all). */
const MAX_MODELS_JSON_BYTES = 1024 * 1024;

const CostSchema = Type.Object({
	input: Type.Optional(Type.Number({ minimum: 0 })),
	output: Type.Optional(Type.Number({ minimum: 0 })),
	cacheRead: Type.Optional(Type.Number({ minimum: 0 })),
	cacheWrite: Type.Optional(Type.Number({ minimum: 0 })),
});

const ModelSchema = Type.Object({
	id: Type.String({ minLength: 1 }),
	name: Type.Optional(Type.String()),
	/** The model's own wire API, where it differs from its provider's. */
	api: Type.Optional(Type.String()),
	contextWindow: Type.Optional(Type.Integer({ minimum: 1 })),
	maxTokens: Type.Optional(Type.Integer({ minimum: 1 })),
	reasoning: Type.Optional(Type.Boolean()),
	input: Type.Optional(Type.Array(Type.Union([Type.Literal("text"), Type.Literal("image")]))),
	cost: Type.Optional(CostSchema),
	headers: Type.Optional(Type.Record(Type.String(), Type.String())),
});

const ProviderSchema = Type.Object({
	baseUrl: Type.Optional(Type.String({ minLength: 1 })),
	/** A name in the provider table (checked after the shape, since APIs can be registered at run time). */
	api: Type.Optional(Type.String()),
	apiKey: Type.Optional(Type.String()),
	headers: Type.Optional(Type.Record(Type.String(), Type.String())),
	models: Type.Optional(Type.Array(ModelSchema)),
});

const ModelsJsonSchema = Type.Object({
	providers: Type.Record(Type.String(), ProviderSchema),
});

export type ModelsJsonModel = Static<typeof ModelSchema>;
export type ModelsJsonProvider = Static<typeof ProviderSchema>;
export type ModelsJson = Static<typeof ModelsJsonSchema>;

/** Reads the file; a missing file means no user models. Throws an Error naming the file and the problem. */
export function readModelsJson(path: string): ModelsJson {
	const text = readConfigText(path, MAX_MODELS_JSON_BYTES);
	return text === undefined ? { providers: {} } : parseModelsJson(text, path);
}

/** `text` may start with a UTF-8 byte-order mark (some editors write one); it is ignored. */
export function parseModelsJson(text: string, path: string): ModelsJson {
	let value: unknown;
	try {
		value = parseJson(text);
	} catch (error) {
		throw new Error(`Invalid JSON in ${path}: ${(error as Error).message}`);
	}
	if (!Value.Check(ModelsJsonSchema, value)) {
		const first = Value.Errors(ModelsJsonSchema, value).First();
		const where = first?.path ? first.path.slice(1).replace(/\//g, ".") : "the top level";
		const hint = first?.path.endsWith("/api") ? ` (supported: ${knownApis().join(", ")})` : "";
		throw new Error(
			`Invalid ${path}: ${where || "the top level"}: ${first?.message ?? "unexpected shape"}${hint}. ` +
				`Expected { "providers": { "<name>": { "baseUrl", "api", "apiKey", "models": [{ "id" }] } } }.`,
		);
	}
	for (const [name, provider] of Object.entries(value.providers)) {
		if (!/^[A-Za-z0-9._-]+$/.test(name)) {
			throw new Error(`Invalid ${path}: provider name "${name}" may only use letters, digits, ".", "_" and "-".`);
		}
		if (provider.api !== undefined && !apiProvider(provider.api)) {
			throw new Error(`Invalid ${path}: providers.${name}.api: unknown API "${provider.api}" (supported: ${knownApis().join(", ")}).`);
		}
		if (!BUILTIN_PROVIDERS[name] && !provider.baseUrl) {
			throw new Error(`Invalid ${path}: providers.${name}: "baseUrl" is required for a provider loom does not know.`);
		}
		const seen = new Set<string>();
		for (const [index, model] of (provider.models ?? []).entries()) {
			if (seen.has(model.id)) throw new Error(`Invalid ${path}: providers.${name}: model "${model.id}" is listed twice.`);
			seen.add(model.id);
			if (model.api !== undefined && !apiProvider(model.api)) {
				throw new Error(`Invalid ${path}: providers.${name}.models.${index}.api: unknown API "${model.api}" (supported: ${knownApis().join(", ")}).`);
			}
		}
	}
	return value;
}
