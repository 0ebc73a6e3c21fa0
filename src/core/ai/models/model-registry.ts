// Which model to talk to and with which key: the built-in catalog merged with models.json, base URLs
// and keys from options, environment and file, and errors that say exactly what to set, with the known models
// closest to an id that matched none ("did you mean", for -m, /model and --list-models).
import { statSync } from "node:fs";
import { join } from "node:path";
import { editDistance } from "../../lib/index.js";
import type { Api, Model } from "../llm-types.js";
import { envApiKey, missingApiKeyMessage, OPTION_WORDING, type OptionWording } from "../api-keys.js";
import { BUILTIN_MODELS, BUILTIN_PROVIDERS, DEFAULT_MODEL_LIMITS, DEFAULT_PROVIDER, FREE } from "../models-catalog.js";
import { checkBaseUrl } from "../providers/index.js";
import { type ModelsJson, type ModelsJsonModel, type ModelsJsonProvider, readModelsJson } from "./models-json.js";
import { authFilePath, freshPlanLogin, isPlanProvider, planRequestHeaders, readAuthFile, type AuthFile, type PlanLogin } from "../logins/index.js";

export interface ModelRequest {
	provider?: string;
	/** A model id, or "provider/id". */
	modelId?: string;
	baseUrl?: string;
	apiKey?: string;
}

export interface ResolvedModel {
	model: Model;
	apiKey: string;
}

/** A model loom knows, and whether a key for its provider is at hand. */
export interface ModelListing {
	model: Model;
	hasKey: boolean;
}

interface ProviderEntry {
	name: string;
	/** The API of models nobody described. */
	api: Api;
	baseUrl: string;
	headers?: Record<string, string>;
	/** As written in models.json (may be "$ENV_VAR"). */
	apiKey?: string;
	defaultModel?: string;
	defaultInput: ("text" | "image")[];
	models: Map<string, Model>;
}

export class ModelRegistry {
	private readonly entries = new Map<string, ProviderEntry>();
	private logins: { stamp: string; file: AuthFile | undefined } | undefined;
	private readonly wording: OptionWording;

	constructor(
		config: ModelsJson,
		/** Path of models.json, quoted in error messages. */
		readonly modelsJsonPath: string,
		private readonly env: NodeJS.ProcessEnv = process.env,
		/** How the caller's user sets a key, a base URL or a provider, as the messages name them: the command line's flags, or the SDK's options. */
		wording: Partial<OptionWording> = {},
		/** loom's home, whose auth.json holds the plans' logins (ChatGPT, Copilot); none: no logins. */
		private readonly loginHome?: string,
	) {
		this.wording = { ...OPTION_WORDING, ...wording };
		for (const builtin of Object.values(BUILTIN_PROVIDERS)) {
			const models = new Map(BUILTIN_MODELS.filter((m) => m.provider === builtin.name).map((m) => [m.id, { ...m }]));
			this.entries.set(builtin.name, { ...builtin, models });
		}
		for (const [name, custom] of Object.entries(config.providers)) this.addProvider(name, custom);
	}

	/** Provider names, built-in first. */
	providers(): string[] {
		return [...this.entries.keys()];
	}

	/** Every known model with its effective base URL, for a /model picker. */
	listModels(): Model[] {
		return [...this.entries.values()].flatMap((entry) => [...entry.models.values()].map((model) => this.withEntry(model, entry)));
	}

	/**
	 * Every known model (catalog and models.json) with whether its provider has a key now. A plan's models only
	 * once signed in to it (or with `withPlans`, for a listing that asks for a plan by name): a plan nobody here
	 * uses would crowd every picker and search with models that cannot be used.
	 */
	availableModels(withPlans = false): ModelListing[] {
		return this.listModels()
			.filter((model) => withPlans || this.offered(model))
			.map((model) => ({ model, hasKey: this.apiKeyFor(model.provider) !== undefined }));
	}

	/** The known `provider/id` names closest to an id that matched none, best first. */
	suggestModels(typed: string): string[] {
		return closestModels(typed, this.listModels().filter((model) => this.offered(model)));
	}

	/** A model not of a plan, or of one signed in to (or given a key in models.json). */
	private offered(model: Model): boolean {
		return !this.usesLogin(model.provider) || this.planLogin(model.provider) !== undefined;
	}

	find(provider: string, modelId: string): Model | undefined {
		const entry = this.entries.get(provider);
		const model = entry?.models.get(modelId);
		return entry && model ? this.withEntry(model, entry) : undefined;
	}

	/** The model a request names, without checking keys. Throws when the provider or model cannot be determined. */
	resolveModel(request: ModelRequest = {}): Model {
		const { provider, modelId } = this.splitRequest(request);
		const entry = this.entries.get(provider);
		if (!entry) {
			throw new Error(
				`Unknown provider "${provider}". Known providers: ${this.providers().join(", ")}. Define others in ${this.modelsJsonPath}.`,
			);
		}
		const id = modelId ?? entry.defaultModel ?? entry.models.keys().next().value;
		if (!id) {
			throw new Error(`Provider "${provider}" lists no models in ${this.modelsJsonPath}; name one, e.g. ${provider}/<model-id>.`);
		}
		const known = entry.models.get(id);
		const model = known ?? this.unknownModel(entry, id);
		return { ...this.withEntry(model, entry), ...(request.baseUrl ? { baseUrl: request.baseUrl } : {}) };
	}

	/**
	 * The model and a usable key; throws an Error naming the variable or option to set when there is none, or when
	 * the model's base URL can never be reached.
	 */
	resolve(request: ModelRequest = {}): ResolvedModel {
		const model = this.resolveModel(request);
		const apiKey = this.requireApiKey(model.provider, request.apiKey);
		checkBaseUrl(model.provider, model.baseUrl, this.wording.baseUrl);
		return { model, apiKey };
	}

	/**
	 * Explicit key, else models.json (a literal or "$ENV_VAR"), else the provider's standard variable, else (a plan)
	 * the login's token as stored, which may be due for renewal: requests take freshApiKey's.
	 */
	apiKeyFor(provider: string, explicit?: string): string | undefined {
		if (explicit) return explicit;
		const entry = this.entries.get(provider);
		if (!entry) return undefined;
		const configured = entry.apiKey ? this.expand(entry.apiKey) : undefined;
		if (configured) return configured;
		return envApiKey(entry.name, this.env) ?? this.planLogin(entry.name)?.access;
	}

	/**
	 * The key a request to `provider` carries now: as apiKeyFor, but a plan's token is renewed first when it is
	 * about to expire. Rejects with a message naming `loom login` when the login is gone or refused.
	 */
	async freshApiKey(provider: string, explicit?: string): Promise<string | undefined> {
		const key = this.apiKeyFor(provider, explicit);
		if (explicit || !this.usesLogin(provider) || this.loginHome === undefined) return key;
		return (await freshPlanLogin(this.loginHome, provider, this.env)).access;
	}

	/** What a run of `provider` is signed in with, for the footer and /session: "ChatGPT login (account …)" or undefined. */
	credentialFor(provider: string, explicit?: string): string | undefined {
		if (explicit || !this.usesLogin(provider)) return undefined;
		const login = this.planLogin(provider);
		return login ? `${BUILTIN_PROVIDERS[provider]!.login!.title} login` : undefined;
	}

	/** A plan whose key is nothing but its login (models.json gives it none). */
	private usesLogin(provider: string): boolean {
		const entry = this.entries.get(provider);
		return isPlanProvider(provider) && !(entry?.apiKey && this.expand(entry.apiKey));
	}

	private planLogin(provider: string): PlanLogin | undefined {
		if (this.loginHome === undefined || !isPlanProvider(provider)) return undefined;
		try {
			// Read again only when the file changed (a listing asks once per model; another loom may sign in).
			const path = authFilePath(this.loginHome);
			const stat = statSync(path, { throwIfNoEntry: false });
			const stamp = stat ? `${stat.mtimeMs}:${stat.size}:${stat.ino}` : "none";
			if (this.logins?.stamp !== stamp) this.logins = { stamp, file: stat ? readAuthFile(this.loginHome) : undefined };
			return this.logins.file?.plans[provider];
		} catch {
			// A broken auth.json: the message comes with the request (freshApiKey reads it too).
			return undefined;
		}
	}

	requireApiKey(provider: string, explicit?: string): string {
		const key = this.apiKeyFor(provider, explicit);
		if (key) return key;
		const entry = this.entries.get(provider);
		const variable = entry?.apiKey && /^\$/.test(entry.apiKey) ? envName(entry.apiKey) : undefined;
		throw new Error(missingApiKeyMessage(provider, { modelsJsonPath: this.modelsJsonPath, keyOption: this.wording.apiKey, variable }));
	}

	private splitRequest(request: ModelRequest): { provider: string; modelId?: string } {
		let modelId = request.modelId?.trim() || undefined;
		let provider = request.provider?.trim() || undefined;
		const slash = modelId?.indexOf("/") ?? -1;
		if (modelId && slash > 0) {
			// "provider/id" only when the prefix is a provider: ids like "qwen/qwen3-coder" contain slashes too.
			const prefix = modelId.slice(0, slash);
			if (this.entries.has(prefix) && (!provider || provider === prefix)) {
				provider = prefix;
				modelId = modelId.slice(slash + 1);
			}
		}
		// A named provider takes any id (a local server's model); a bare id must be one loom knows.
		if (provider) return { provider, modelId };
		if (!modelId) return { provider: DEFAULT_PROVIDER };
		for (const entry of this.entries.values()) if (entry.models.has(modelId)) return { provider: entry.name, modelId };
		const suggestions = this.suggestModels(modelId);
		const closest = suggestions.length > 0 ? ` Closest known: ${suggestions.join(", ")}.` : "";
		if (slash > 0) {
			const prefix = modelId.slice(0, slash);
			throw new Error(
				`Unknown provider "${prefix}" in "${modelId}" (providers: ${this.providers().join(", ")}): add it to ${this.modelsJsonPath}, or pass ${this.wording.provider}.${closest}`,
			);
		}
		throw new Error(
			`Unknown model "${modelId}".${closest} For a model loom does not list, name its provider: <provider>/${modelId} (providers: ${this.providers().join(", ")}), or add it to ${this.modelsJsonPath}.${this.wording.listModels && ` ${this.wording.listModels}`}`,
		);
	}

	private addProvider(name: string, custom: ModelsJsonProvider): void {
		const builtin = this.entries.get(name);
		const entry: ProviderEntry = builtin ?? {
			name,
			api: custom.api ?? "openai-completions",
			baseUrl: custom.baseUrl!,
			defaultInput: ["text"],
			models: new Map(),
		};
		if (custom.api) {
			// The provider's API applies to all its models, the catalog's included; a model's own `api` wins.
			entry.api = custom.api;
			for (const [id, model] of entry.models) entry.models.set(id, { ...model, api: custom.api });
		}
		if (custom.baseUrl) entry.baseUrl = custom.baseUrl;
		if (custom.apiKey) entry.apiKey = custom.apiKey;
		if (custom.headers) entry.headers = { ...entry.headers, ...custom.headers };
		for (const spec of custom.models ?? []) {
			const base = entry.models.get(spec.id) ?? this.unknownModel(entry, spec.id);
			entry.models.set(spec.id, mergeModel(base, spec));
		}
		if (!builtin) entry.defaultModel = custom.models?.[0]?.id;
		this.entries.set(name, entry);
	}

	/** A model id nobody described: it works, with default limits and no known price. */
	private unknownModel(entry: ProviderEntry, id: string): Model {
		return {
			id,
			name: id,
			api: entry.api,
			provider: entry.name,
			baseUrl: entry.baseUrl,
			reasoning: false,
			input: [...entry.defaultInput],
			cost: { ...FREE },
			...DEFAULT_MODEL_LIMITS,
		};
	}

	private withEntry(model: Model, entry: ProviderEntry): Model {
		const envBaseUrl = BUILTIN_PROVIDERS[entry.name] ? this.env[BUILTIN_PROVIDERS[entry.name]!.baseUrlEnv] : undefined;
		// A plan's login names the account's endpoint and the headers its requests carry.
		const login = this.usesLogin(entry.name) ? this.planLogin(entry.name) : undefined;
		const loginHeaders = login ? planRequestHeaders(entry.name, login) : undefined;
		const headers = entry.headers || model.headers || loginHeaders ? { ...loginHeaders, ...entry.headers, ...model.headers } : undefined;
		return {
			...model,
			baseUrl: envBaseUrl || login?.baseUrl || entry.baseUrl,
			...(headers ? { headers } : {}),
		};
	}

	private expand(value: string): string | undefined {
		const variable = envName(value);
		return variable ? this.env[variable] || undefined : value;
	}
}

function envName(value: string): string | undefined {
	return /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(value)?.[1];
}

function mergeModel(base: Model, spec: ModelsJsonModel): Model {
	return {
		...base,
		api: spec.api ?? base.api,
		name: spec.name ?? base.name,
		contextWindow: spec.contextWindow ?? base.contextWindow,
		maxTokens: spec.maxTokens ?? base.maxTokens,
		reasoning: spec.reasoning ?? base.reasoning,
		input: spec.input ?? base.input,
		cost: { ...base.cost, ...spec.cost },
		...(spec.headers ? { headers: { ...base.headers, ...spec.headers } } : {}),
	};
}

/** Loads `<loomHome>/models.json` (absent is fine) into a registry. Throws on an invalid file. `wording`: see ModelRegistry. */
export function loadModelRegistry(loomHome: string, env: NodeJS.ProcessEnv = process.env, wording: Partial<OptionWording> = {}): ModelRegistry {
	const path = join(loomHome, "models.json");
	return new ModelRegistry(readModelsJson(path), path, env, wording, loomHome);
}

/** How many suggestions an unknown-model message offers. */
const SUGGESTION_COUNT = 3;

/**
 * The `provider/id` names of the models most like `typed` (compared with both the id and provider/id, case
 * ignored), closest first. Only near misses count (a few typos, or a name that contains what was typed), and of
 * those only the nearest: one typo away hides three typos away.
 */
export function closestModels(typed: string, models: readonly Pick<Model, "provider" | "id">[], limit = SUGGESTION_COUNT): string[] {
	const query = typed.trim().toLowerCase();
	if (query === "") return [];
	const allowed = Math.max(2, Math.floor(query.length / 3));
	const scored: { name: string; score: number }[] = [];
	for (const model of models) {
		const name = `${model.provider}/${model.id}`;
		const id = model.id.toLowerCase();
		const full = name.toLowerCase();
		let score = Math.min(editDistance(query, id), editDistance(query, full));
		if (query.length >= 3) {
			// "sonnet" for claude-sonnet-5-5: a part of the name is as good as a typo or two...
			if (id.includes(query) || full.includes(query)) score = Math.min(score, 1 + (id.length - query.length) / 100);
			// ...and "sonet" is a typo in one of its words.
			for (const word of id.split(/[-./:_]/)) if (word.length >= 3) score = Math.min(score, editDistance(query, word) + 0.5);
		}
		if (score <= allowed) scored.push({ name, score });
	}
	scored.sort((a, b) => a.score - b.score || a.name.length - b.name.length);
	const best = scored[0]?.score ?? 0;
	return scored
		.filter((entry) => entry.score <= best + 1)
		.slice(0, limit)
		.map((entry) => entry.name);
}
