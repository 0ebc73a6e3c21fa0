// Which model a new session talks to: the options (an id, "provider/id", or a Model object), else the model a
// continued session last used, else settings, else the provider table's default.
import type { Model, ModelRegistry, ModelResolver, ModelSelection, Settings } from "../core/index.js";
import { SessionOptionError } from "./session-option-error.js";

export interface ModelOptions {
	provider?: string;
	/** A model id, "provider/id", or a Model object (used as is, whatever models.json says). */
	model?: string | Model;
	baseUrl?: string;
	apiKey?: string;
}

/**
 * Options win; a resumed session keeps the model it last used; then settings; then the registry's default.
 * A settings model belongs to the settings provider, so a provider alone does not inherit another provider's model.
 */
export function chooseModel(
	options: Pick<ModelOptions, "provider" | "baseUrl" | "apiKey"> & { model?: string },
	settings: Settings,
	previous?: { provider: string; modelId: string },
): ModelSelection {
	const overrides = { baseUrl: options.baseUrl, apiKey: options.apiKey };
	if (options.provider || options.model) {
		const modelId = options.model ?? (options.provider === settings.provider ? settings.model : undefined);
		return { provider: options.provider, modelId, ...overrides };
	}
	if (previous) return { provider: previous.provider, modelId: previous.modelId, ...overrides };
	return { provider: settings.provider, modelId: settings.model, ...overrides };
}

/**
 * The selection and the resolver for the options: a Model object is known to the resolver besides the registry's.
 * Throws a SessionOptionError when the options name a model or provider nobody knows (a missing key is no error
 * here: the session opens and says what to set).
 */
export function modelChoice(
	options: ModelOptions,
	settings: Settings,
	registry: ModelRegistry,
	previous?: { provider: string; modelId: string },
): { selection: ModelSelection; models: ModelResolver } {
	const { model } = options;
	if (typeof model !== "object") {
		const selection = chooseModel({ ...options, model }, settings, previous);
		if (options.provider || model) checkNamed(registry, selection, options.provider);
		return { selection, models: registry };
	}
	const selection = { provider: model.provider, modelId: model.id, baseUrl: options.baseUrl, apiKey: options.apiKey };
	return { selection, models: withModel(registry, model) };
}

/** The model the options name must be one a provider can serve; the error names the option to fix. */
function checkNamed(registry: ModelRegistry, selection: ModelSelection, provider: string | undefined): void {
	try {
		registry.resolveModel(selection);
	} catch (error) {
		const option = provider && !registry.providers().includes(provider.trim()) ? "provider" : "model";
		throw new SessionOptionError(option, (error as Error).message);
	}
}

/**
 * The choice of the model the options name, made before anything opens: named, it does not depend on a session's
 * history. Undefined when they name none. A provider or model nobody knows (not a missing key, which a session
 * opens with and explains) throws a SessionOptionError naming the option.
 */
export function namedModelChoice(options: ModelOptions, settings: Settings, registry: ModelRegistry): ReturnType<typeof modelChoice> | undefined {
	return options.provider || options.model ? modelChoice(options, settings, registry) : undefined;
}

/**
 * The registry, plus one model it resolves exactly as given (its key: the explicit one, else the provider's), and
 * lists first.
 */
function withModel(registry: ModelRegistry, model: Model): ModelResolver {
	const names = (selection: ModelSelection) =>
		selection.modelId === model.id && (selection.provider ?? model.provider) === model.provider;
	const resolveModel = (selection: ModelSelection): Model =>
		names(selection) ? { ...model, ...(selection.baseUrl ? { baseUrl: selection.baseUrl } : {}) } : registry.resolveModel(selection);
	return {
		resolveModel,
		resolve(selection) {
			if (!names(selection)) return registry.resolve(selection);
			return { model: resolveModel(selection), apiKey: registry.requireApiKey(model.provider, selection.apiKey) };
		},
		freshApiKey: (provider, explicit) => registry.freshApiKey(provider, explicit),
		credentialFor: (provider, explicit) => registry.credentialFor(provider, explicit),
		availableModels() {
			const others = registry.availableModels().filter((listing) => !(listing.model.provider === model.provider && listing.model.id === model.id));
			return [{ model, hasKey: registry.apiKeyFor(model.provider) !== undefined }, ...others];
		},
	};
}
