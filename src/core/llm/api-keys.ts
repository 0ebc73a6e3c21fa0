// Where an API key comes from, and what to tell the user when there is none. The built-in providers' key
// variables are listed with the providers (models-catalog.ts).
import type { Model } from "../llm-types.js";
import { BUILTIN_PROVIDERS } from "./models-catalog.js";

/** The command-line flag that passes a key explicitly. */
export const API_KEY_FLAG = "--api-key";

/** Names exactly what to set: the provider's variable, the models.json entry, or the flag. */
export function missingApiKeyMessage(provider: string, modelsJsonPath = "models.json"): string {
	const envVar = BUILTIN_PROVIDERS[provider]?.apiKeyEnv;
	if (envVar) return `No API key for provider "${provider}": set ${envVar} or pass ${API_KEY_FLAG}.`;
	return `No API key for provider "${provider}": add "apiKey" to providers.${provider} in ${modelsJsonPath} (a key, or "$ENV_VAR" to read one) or pass ${API_KEY_FLAG}.`;
}

/** The explicit key, else the provider's environment variable. */
export function providerApiKey(
	model: Pick<Model, "provider">,
	explicit: string | undefined,
	env: NodeJS.ProcessEnv = process.env,
): { apiKey?: string; missingMessage: string } {
	const envVar = BUILTIN_PROVIDERS[model.provider]?.apiKeyEnv;
	const apiKey = explicit || (envVar ? env[envVar] : undefined) || undefined;
	return { apiKey, missingMessage: missingApiKeyMessage(model.provider) };
}
