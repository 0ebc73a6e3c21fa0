// Where an API key comes from, and what to tell the user when there is none.
import type { Model } from "../llm-types.js";

/** Environment variables of the built-in providers. */
export const PROVIDER_KEY_ENV: Record<string, string> = {
	anthropic: "ANTHROPIC_API_KEY",
	openai: "OPENAI_API_KEY",
};

/** The command-line flag that passes a key explicitly. */
export const API_KEY_FLAG = "--api-key";

/** Names exactly what to set: the provider's variable, the models.json entry, or the flag. */
export function missingApiKeyMessage(provider: string, modelsJsonPath?: string): string {
	const envVar = PROVIDER_KEY_ENV[provider];
	if (envVar) return `No API key for provider "${provider}": set ${envVar} or pass ${API_KEY_FLAG}.`;
	const where = modelsJsonPath ?? "models.json";
	return `No API key for provider "${provider}": add "apiKey" to its entry in ${where} (a key, or "$ENV_VAR" to read one) or pass ${API_KEY_FLAG}.`;
}

/** The explicit key, else the provider's environment variable. */
export function providerApiKey(
	model: Pick<Model, "provider">,
	explicit: string | undefined,
	env: NodeJS.ProcessEnv = process.env,
): { apiKey?: string; missingMessage: string } {
	const envVar = PROVIDER_KEY_ENV[model.provider];
	const apiKey = explicit || (envVar ? env[envVar] : undefined) || undefined;
	return { apiKey, missingMessage: missingApiKeyMessage(model.provider) };
}
