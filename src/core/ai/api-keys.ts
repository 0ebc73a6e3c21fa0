// Where an API key comes from, and what to tell the user when there is none. The built-in providers' key
// variables are listed with the providers (models-catalog.ts). How a key, a base URL or a provider is passed is
// the caller's wording (the command line names its flags): core knows only the options of a stream and of
// createAgentSession.
import type { Model } from "./llm-types.js";
import { BUILTIN_PROVIDERS } from "./models-catalog.js";

/** How the caller's user sets what the model layer's messages tell them to set. */
export interface OptionWording {
	/** Passes a key explicitly. */
	apiKey: string;
	/** Overrides a provider's endpoint. */
	baseUrl: string;
	/** Names the provider of a model id loom does not list. */
	provider: string;
	/** A sentence ending an unknown model's message: where the known models are listed ("": nowhere). */
	listModels: string;
}

/** The options of createAgentSession and of a stream, as messages to code name them. */
export const OPTION_WORDING: OptionWording = {
	apiKey: "the apiKey option",
	baseUrl: "the baseUrl option",
	provider: "the provider option",
	listModels: "",
};

export interface MissingKeyContext {
	/** Where models.json is, for a provider loom does not know. */
	modelsJsonPath?: string;
	/** The caller's way to pass a key, as its user knows it (the command line's flag); default: the apiKey option. */
	keyOption?: string;
	/** The variable models.json reads the provider's key from, when it names one that is not set. */
	variable?: string;
}

/** Names exactly what to set: the provider's variable, the models.json entry or the variable it reads, or `keyOption`. */
export function missingApiKeyMessage(provider: string, { modelsJsonPath = "models.json", keyOption = OPTION_WORDING.apiKey, variable }: MissingKeyContext = {}): string {
	const start = `No API key for provider "${provider}"`;
	if (variable) return `${start}: ${modelsJsonPath} reads it from ${variable}, which is not set. Set ${variable} or pass ${keyOption}.`;
	const plan = BUILTIN_PROVIDERS[provider]?.login;
	if (plan) return `Not signed in to ${plan.title}: run loom login ${provider}.`;
	const [first, ...others] = BUILTIN_PROVIDERS[provider]?.apiKeyEnvs ?? [];
	if (first) {
		const alternatives = others.length > 0 ? ` (or ${others.join(", ")})` : "";
		return `${start}: set ${first}${alternatives} or pass ${keyOption}.`;
	}
	return `${start}: add "apiKey" to providers.${provider} in ${modelsJsonPath} (a key, or "$ENV_VAR" to read one) or pass ${keyOption}.`;
}

/** A built-in provider's key from the environment: the first of its variables that is set. */
export function envApiKey(provider: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
	for (const name of BUILTIN_PROVIDERS[provider]?.apiKeyEnvs ?? []) if (env[name]) return env[name];
	return undefined;
}

/** The explicit key, else the provider's environment variable. */
export function providerApiKey(
	model: Pick<Model, "provider">,
	explicit: string | undefined,
	env: NodeJS.ProcessEnv = process.env,
): { apiKey?: string; missingMessage: string } {
	const apiKey = explicit || envApiKey(model.provider, env);
	return { apiKey, missingMessage: missingApiKeyMessage(model.provider) };
}
