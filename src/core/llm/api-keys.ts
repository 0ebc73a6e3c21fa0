// Where an API key comes from, and what to tell the user when there is none. The built-in providers' key
// variables are listed with the providers (models-catalog.ts).
import type { Model } from "../llm-types.js";
import { BUILTIN_PROVIDERS } from "./models-catalog.js";

/** The command-line flag that passes a key explicitly. */
export const API_KEY_FLAG = "--api-key";

/** Names exactly what to set: the provider's variable, the models.json entry, or the flag. */
export function missingApiKeyMessage(provider: string, modelsJsonPath = "models.json"): string {
	const [first, ...others] = BUILTIN_PROVIDERS[provider]?.apiKeyEnvs ?? [];
	if (first) {
		const alternatives = others.length > 0 ? ` (or ${others.join(", ")})` : "";
		return `No API key for provider "${provider}": set ${first}${alternatives} or pass ${API_KEY_FLAG}.`;
	}
	return `No API key for provider "${provider}": add "apiKey" to providers.${provider} in ${modelsJsonPath} (a key, or "$ENV_VAR" to read one) or pass ${API_KEY_FLAG}.`;
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
