// The built-in providers and models. Prices are US dollars per million tokens (list prices, November 2026);
// a user can correct or extend any of it in ~/.loom/models.json.
import type { Api, Model, ModelCost } from "./llm-types.js";

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
	/**
	 * A plan signed in to with `loom login` (its key is the login's token, kept in auth.json), not an API key: its
	 * name, and how it signs in (a browser on this machine, or a code typed on any device), the default first.
	 */
	login?: { title: string; methods: readonly ("browser" | "device")[] };
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
	// A ChatGPT plan: the Responses API at the endpoint Codex uses; the login adds the account header.
	chatgpt: {
		name: "chatgpt",
		api: "openai-responses",
		baseUrl: "https://chatgpt.com/backend-api/codex",
		baseUrlEnv: "LOOM_CHATGPT_BASE_URL",
		apiKeyEnvs: [],
		defaultModel: "gpt-5.6-terra",
		defaultInput: ["text", "image"],
		login: { title: "ChatGPT", methods: ["browser", "device"] },
	},
	// A GitHub Copilot plan: Chat Completions at the endpoint the Copilot token names (this one for individuals).
	"github-copilot": {
		name: "github-copilot",
		api: "openai-completions",
		baseUrl: "https://api.individual.githubcopilot.com",
		baseUrlEnv: "LOOM_COPILOT_BASE_URL",
		apiKeyEnvs: [],
		defaultModel: "gpt-4.1",
		defaultInput: ["text", "image"],
		login: { title: "GitHub Copilot", methods: ["device"] },
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

/**
 * What a provider's listed models share: the wire API, the window and output limits they have unless a model
 * says otherwise, and how cache reads and writes are priced from the input price.
 */
interface ModelFamily {
	provider: string;
	api: Api;
	contextWindow: number;
	maxTokens: number;
	cachePrices(input: number): Pick<ModelCost, "cacheRead" | "cacheWrite">;
}

const CLAUDE: ModelFamily = {
	provider: "anthropic",
	api: "anthropic-messages",
	contextWindow: 1_000_000,
	maxTokens: 128_000,
	// Cache reads cost a tenth of input; 5-minute cache writes a quarter more than input.
	cachePrices: (input) => ({ cacheRead: input / 10, cacheWrite: input * 1.25 }),
};

/** OpenAI's reasoning models, served through the Responses API so their reasoning carries across turns. */
const GPT: ModelFamily = {
	provider: "openai",
	api: "openai-responses",
	contextWindow: 1_000_000,
	maxTokens: 128_000,
	cachePrices: (input) => ({ cacheRead: input / 10, cacheWrite: 0 }),
};

/** The plan's models cost nothing per token (the subscription pays). */
const CHATGPT_PLAN: ModelFamily = { ...GPT, provider: "chatgpt", cachePrices: () => ({ cacheRead: 0, cacheWrite: 0 }) };

/** Copilot's models, each through Chat Completions; its windows are smaller than the vendors' own. */
const COPILOT: ModelFamily = {
	provider: "github-copilot",
	api: "openai-completions",
	contextWindow: 128_000,
	maxTokens: 16_384,
	cachePrices: () => ({ cacheRead: 0, cacheWrite: 0 }),
};

const GEMINI: ModelFamily = {
	provider: "google",
	api: "google-generative-ai",
	contextWindow: 1_048_576,
	maxTokens: 65_536,
	// Cached input (implicit caching) costs a tenth of input; prices are those of prompts up to 200k tokens.
	cachePrices: (input) => ({ cacheRead: input / 10, cacheWrite: 0 }),
};

/** A listed model: reasoning, text and images, priced per million tokens of input and output. */
function model(
	family: ModelFamily,
	id: string,
	name: string,
	input: number,
	output: number,
	limits: Partial<Pick<Model, "contextWindow" | "maxTokens">> = {},
): Model {
	return {
		id,
		name,
		api: family.api,
		provider: family.provider,
		baseUrl: BUILTIN_PROVIDERS[family.provider]!.baseUrl,
		reasoning: true,
		input: ["text", "image"],
		cost: { input, output, ...family.cachePrices(input) },
		contextWindow: limits.contextWindow ?? family.contextWindow,
		maxTokens: limits.maxTokens ?? family.maxTokens,
	};
}

export const BUILTIN_MODELS: readonly Model[] = Object.freeze([
	model(CLAUDE, "claude-sonnet-5-5", "Claude Sonnet 5.5", 2, 10),
	model(CLAUDE, "claude-opus-5-5", "Claude Opus 5.5", 4, 20),
	model(CLAUDE, "claude-fable-5-1", "Claude Fable 5.1", 10, 50),
	model(CLAUDE, "claude-sonnet-5", "Claude Sonnet 5", 2, 10),
	model(CLAUDE, "claude-opus-5", "Claude Opus 5", 5, 25),
	model(CLAUDE, "claude-haiku-4-5", "Claude Haiku 4.5", 1, 5, { contextWindow: 200_000, maxTokens: 64_000 }),
	model(GPT, "gpt-5.6-sol", "GPT-5.6 Sol", 5, 30),
	model(GPT, "gpt-5.6-terra", "GPT-5.6 Terra", 2.5, 15),
	model(GPT, "gpt-5.6-luna", "GPT-5.6 Luna", 1, 6),
	model(GEMINI, "gemini-3.1-pro", "Gemini 3.1 Pro", 2, 12),
	model(GEMINI, "gemini-3.5-flash", "Gemini 3.5 Flash", 1.5, 9),
	model(GEMINI, "gemini-3-flash", "Gemini 3 Flash", 0.5, 3),
	model(GEMINI, "gemini-3.1-flash-lite", "Gemini 3.1 Flash-Lite", 0.25, 1.5),
	model(CHATGPT_PLAN, "gpt-5.6-sol", "GPT-5.6 Sol (ChatGPT plan)", 0, 0),
	model(CHATGPT_PLAN, "gpt-5.6-terra", "GPT-5.6 Terra (ChatGPT plan)", 0, 0),
	model(CHATGPT_PLAN, "gpt-5.6-luna", "GPT-5.6 Luna (ChatGPT plan)", 0, 0),
	{ ...model(COPILOT, "gpt-4.1", "GPT-4.1 (Copilot)", 0, 0), reasoning: false },
	{ ...model(COPILOT, "gpt-4o", "GPT-4o (Copilot)", 0, 0), reasoning: false },
	model(COPILOT, "gpt-5-mini", "GPT-5 mini (Copilot)", 0, 0),
	model(COPILOT, "claude-sonnet-4.5", "Claude Sonnet 4.5 (Copilot)", 0, 0),
	model(COPILOT, "claude-haiku-4.5", "Claude Haiku 4.5 (Copilot)", 0, 0),
	model(COPILOT, "gemini-2.5-pro", "Gemini 2.5 Pro (Copilot)", 0, 0),
]);
