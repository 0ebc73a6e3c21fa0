// The built-in providers and models. Prices are US dollars per million tokens (list prices, November 2026);
// a user can correct or extend any of it in ~/.loom/models.json.
import type { Api, Model, ModelCost } from "../llm-types.js";

export interface BuiltinProvider {
	name: string;
	api: Api;
	baseUrl: string;
	/** Environment variable overriding baseUrl. */
	baseUrlEnv: string;
	/** Environment variables holding the API key; the first one set is used. */
	apiKeyEnvs: readonly string[];
	defaultModel: string;
	/** What an unknown model id on this provider accepts. */
	defaultInput: ("text" | "image")[];
}

export const BUILTIN_PROVIDERS: Record<string, BuiltinProvider> = {
	anthropic: {
		name: "anthropic",
		api: "anthropic-messages",
		baseUrl: "https://api.anthropic.com",
		baseUrlEnv: "ANTHROPIC_BASE_URL",
		apiKeyEnvs: ["ANTHROPIC_API_KEY"],
		defaultModel: "claude-sonnet-5-5",
		defaultInput: ["text", "image"],
	},
	openai: {
		name: "openai",
		// For ids the catalog does not list (older models, compatible servers); its reasoning models say their own.
		api: "openai-completions",
		baseUrl: "https://api.openai.com/v1",
		baseUrlEnv: "OPENAI_BASE_URL",
		apiKeyEnvs: ["OPENAI_API_KEY"],
		defaultModel: "gpt-5.6-terra",
		defaultInput: ["text", "image"],
	},
	google: {
		name: "google",
		api: "google-generative-ai",
		baseUrl: "https://generativelanguage.googleapis.com/v1beta",
		baseUrlEnv: "GEMINI_BASE_URL",
		apiKeyEnvs: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
		defaultModel: "gemini-3.1-pro",
		defaultInput: ["text", "image"],
	},
};

export const DEFAULT_PROVIDER = "anthropic";

/** Limits assumed for a model nobody described. */
export const DEFAULT_MODEL_LIMITS = { contextWindow: 128_000, maxTokens: 16_384 };

export const FREE: ModelCost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

/**
 * A stand-in where no usable model exists yet (an Agent created without one, a session whose selection cannot
 * be resolved): it carries names for display and can serve no request (api "none", no window).
 */
export function placeholderModel(names: Partial<Pick<Model, "id" | "name" | "provider" | "baseUrl">> = {}): Model {
	return {
		id: names.id ?? "none",
		name: names.name ?? names.id ?? "No model",
		api: "none",
		provider: names.provider ?? "none",
		baseUrl: names.baseUrl ?? "",
		reasoning: false,
		input: ["text"],
		cost: { ...FREE },
		contextWindow: 0,
		maxTokens: 0,
	};
}

function claude(id: string, name: string, input: number, output: number, contextWindow: number, maxTokens: number): Model {
	return {
		id,
		name,
		api: "anthropic-messages",
		provider: "anthropic",
		baseUrl: BUILTIN_PROVIDERS.anthropic!.baseUrl,
		reasoning: true,
		input: ["text", "image"],
		// Cache reads cost a tenth of input; 5-minute cache writes a quarter more than input.
		cost: { input, output, cacheRead: input / 10, cacheWrite: input * 1.25 },
		contextWindow,
		maxTokens,
	};
}

/** OpenAI's reasoning models, served through the Responses API so their reasoning carries across turns. */
function gpt(id: string, name: string, input: number, output: number): Model {
	return {
		id,
		name,
		api: "openai-responses",
		provider: "openai",
		baseUrl: BUILTIN_PROVIDERS.openai!.baseUrl,
		reasoning: true,
		input: ["text", "image"],
		cost: { input, output, cacheRead: input / 10, cacheWrite: 0 },
		contextWindow: 1_000_000,
		maxTokens: 128_000,
	};
}

function gemini(id: string, name: string, input: number, output: number): Model {
	return {
		id,
		name,
		api: "google-generative-ai",
		provider: "google",
		baseUrl: BUILTIN_PROVIDERS.google!.baseUrl,
		reasoning: true,
		input: ["text", "image"],
		// Cached input (implicit caching) costs a tenth of input; prices are those of prompts up to 200k tokens.
		cost: { input, output, cacheRead: input / 10, cacheWrite: 0 },
		contextWindow: 1_048_576,
		maxTokens: 65_536,
	};
}

export const BUILTIN_MODELS: readonly Model[] = Object.freeze([
	claude("claude-sonnet-5-5", "Claude Sonnet 5.5", 2, 10, 1_000_000, 128_000),
	claude("claude-opus-5-5", "Claude Opus 5.5", 4, 20, 1_000_000, 128_000),
	claude("claude-fable-5-1", "Claude Fable 5.1", 10, 50, 1_000_000, 128_000),
	claude("claude-sonnet-5", "Claude Sonnet 5", 2, 10, 1_000_000, 128_000),
	claude("claude-opus-5", "Claude Opus 5", 5, 25, 1_000_000, 128_000),
	claude("claude-haiku-4-5", "Claude Haiku 4.5", 1, 5, 200_000, 64_000),
	gpt("gpt-5.6-sol", "GPT-5.6 Sol", 5, 30),
	gpt("gpt-5.6-terra", "GPT-5.6 Terra", 2.5, 15),
	gpt("gpt-5.6-luna", "GPT-5.6 Luna", 1, 6),
	gemini("gemini-3.1-pro", "Gemini 3.1 Pro", 2, 12),
	gemini("gemini-3.5-flash", "Gemini 3.5 Flash", 1.5, 9),
	gemini("gemini-3-flash", "Gemini 3 Flash", 0.5, 3),
	gemini("gemini-3.1-flash-lite", "Gemini 3.1 Flash-Lite", 0.25, 1.5),
]);
