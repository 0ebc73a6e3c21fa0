import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { BUILTIN_MODELS, calculateCost, emptyUsage, loadModelRegistry } from "../../../../src/core/ai/index.js";
import { tempDir } from "../../../support/temp-dir.js";

let home: string;
beforeEach(() => {
	home = tempDir("loom-models-");
});

async function writeModels(value: unknown): Promise<string> {
	const path = join(home, "models.json");
	await writeFile(path, typeof value === "string" ? value : JSON.stringify(value, null, 2));
	return path;
}

const OLLAMA = {
	providers: {
		ollama: {
			baseUrl: "http://localhost:11434/v1",
			api: "openai-completions",
			apiKey: "ollama",
			models: [{ id: "qwen2.5-coder:14b", contextWindow: 32768 }],
		},
	},
};

describe("model registry", () => {
	it("defaults to Anthropic with a current Claude Sonnet when nothing is given", () => {
		const registry = loadModelRegistry(home, { ANTHROPIC_API_KEY: "sk-ant" });
		const { model, apiKey } = registry.resolve();
		expect(model.provider).toBe("anthropic");
		expect(model.api).toBe("anthropic-messages");
		expect(model.id).toMatch(/^claude-sonnet-/);
		expect(model.baseUrl).toBe("https://api.anthropic.com");
		expect(apiKey).toBe("sk-ant");
	});

	it("resolves provider/id strings, bare known ids, and unknown ids on a known provider with default limits", () => {
		const registry = loadModelRegistry(home, { OPENAI_API_KEY: "sk-oa", ANTHROPIC_API_KEY: "sk-ant" });
		expect(registry.resolve({ modelId: "openai/gpt-5.6-luna" }).model).toMatchObject({ provider: "openai", id: "gpt-5.6-luna" });
		// OpenAI's reasoning models speak the Responses API; an id the catalog does not list, Chat Completions.
		expect(registry.resolve({ modelId: "gpt-5.6-sol" }).model).toMatchObject({ provider: "openai", api: "openai-responses" });
		expect(registry.resolve({ modelId: "openai/gpt-4o" }).model).toMatchObject({ provider: "openai", api: "openai-completions" });
		const unknown = registry.resolve({ provider: "anthropic", modelId: "claude-future-9" });
		expect(unknown.model).toMatchObject({ id: "claude-future-9", provider: "anthropic", api: "anthropic-messages" });
		expect(unknown.model.contextWindow).toBeGreaterThan(0);
		expect(unknown.model.maxTokens).toBeGreaterThan(0);
		expect(() => registry.resolve({ modelId: "mystery-model" })).toThrow(/Unknown model "mystery-model".*provider/);
		expect(() => registry.resolve({ provider: "nowhere" })).toThrow(/Unknown provider "nowhere".*anthropic, openai/);
	});

	it("reads user providers from models.json, with apiKey from $ENV_VAR", async () => {
		await writeModels({
			providers: {
				...OLLAMA.providers,
				rented: { baseUrl: "https://llm.example/v1", apiKey: "$RENTED_KEY", models: [{ id: "big/model-70b", reasoning: true, cost: { input: 1, output: 2 } }] },
			},
		});
		const registry = loadModelRegistry(home, { RENTED_KEY: "rk-123" });
		const ollama = registry.resolve({ modelId: "ollama/qwen2.5-coder:14b" });
		expect(ollama.apiKey).toBe("ollama");
		expect(ollama.model).toMatchObject({
			provider: "ollama",
			api: "openai-completions",
			baseUrl: "http://localhost:11434/v1",
			contextWindow: 32768,
		});
		// An unknown id on a user provider works as well.
		expect(registry.resolve({ modelId: "ollama/llama3.3:70b" }).model).toMatchObject({ id: "llama3.3:70b", provider: "ollama" });
		// Slashes inside ids survive when the prefix is not a provider.
		const rented = registry.resolve({ provider: "rented", modelId: "big/model-70b" });
		expect(rented).toMatchObject({ apiKey: "rk-123", model: { id: "big/model-70b", reasoning: true } });
		expect(registry.resolve({ provider: "rented" }).model.id).toBe("big/model-70b");
		expect(registry.listModels().map((m) => `${m.provider}/${m.id}`)).toEqual(
			expect.arrayContaining(["anthropic/claude-sonnet-5-5", "openai/gpt-5.6-terra", "ollama/qwen2.5-coder:14b", "rented/big/model-70b"]),
		);
	});

	it("says exactly which variable or caller's option to set when no key is usable", async () => {
		await writeModels({ providers: { rented: { baseUrl: "https://x/v1", apiKey: "$RENTED_KEY" }, bare: { baseUrl: "https://y/v1", models: [{ id: "m" }] } } });
		const registry = loadModelRegistry(home, {}, { apiKey: "--api-key" });
		expect(() => registry.resolve()).toThrow("No API key for provider \"anthropic\": set ANTHROPIC_API_KEY or pass --api-key.");
		expect(() => registry.resolve({ provider: "openai" })).toThrow(/set OPENAI_API_KEY or pass --api-key/);
		expect(() => registry.resolve({ modelId: "rented/m" })).toThrow(/reads it from RENTED_KEY, which is not set\. Set RENTED_KEY or pass --api-key/);
		expect(() => registry.resolve({ modelId: "bare/m" })).toThrow(/add "apiKey" to providers\.bare in .*models\.json/);
		expect(registry.resolve({ provider: "anthropic", apiKey: "explicit" }).apiKey).toBe("explicit");
	});

	it("names the apiKey option when the caller gives no wording of its own: core knows no command-line flag", () => {
		const registry = loadModelRegistry(home, {});
		expect(() => registry.resolve()).toThrow('No API key for provider "anthropic": set ANTHROPIC_API_KEY or pass the apiKey option.');
		expect(() => registry.resolve({ provider: "openai" })).toThrow(/set OPENAI_API_KEY or pass the apiKey option\.$/);
	});

	it("words what to set or run in the caller's terms (the command line's flags), and in createAgentSession's without them", async () => {
		const cli = { apiKey: "--api-key", baseUrl: "--base-url", provider: "--provider", listModels: "loom --list-models shows the known ones." };
		const env = { OPENAI_API_KEY: "k" };
		expect(() => loadModelRegistry(home, env, cli).resolve({ modelId: "llama3.3:70b" })).toThrow(/models\.json\. loom --list-models shows the known ones\.$/);
		expect(() => loadModelRegistry(home, env).resolve({ modelId: "llama3.3:70b" })).toThrow(/models\.json\.$/);
		expect(() => loadModelRegistry(home, env, cli).resolve({ modelId: "mystery/x" })).toThrow(/, or pass --provider\.$/);
		expect(() => loadModelRegistry(home, env).resolve({ modelId: "mystery/x" })).toThrow(/, or pass the provider option\.$/);
		// A base URL that can never work is refused before any request, naming where it is set.
		expect(() => loadModelRegistry(home, env, cli).resolve({ provider: "openai", baseUrl: "foo" })).toThrow(
			'Invalid base URL for openai: "foo" (not a URL; set by --base-url, the *_BASE_URL variable or models.json); use a full http:// or https:// URL such as http://localhost:11434/v1',
		);
		expect(() => loadModelRegistry(home, { ...env, OPENAI_BASE_URL: "ftp://x" }).resolve({ provider: "openai" })).toThrow(
			/"ftp:" is not http: or https:; set by the baseUrl option, the \*_BASE_URL variable or models\.json/,
		);
	});

	it("names an unknown provider in provider/id", () => {
		const registry = loadModelRegistry(home, { ANTHROPIC_API_KEY: "k" });
		expect(() => registry.resolve({ modelId: "nope/x" })).toThrow(/Unknown provider "nope" in "nope\/x" \(providers: anthropic, openai, google, chatgpt, github-copilot\)/);
	});

	it("overrides base URLs by option, then environment, then models.json", async () => {
		await writeModels({ providers: { anthropic: { baseUrl: "https://proxy.example" } } });
		const fromFile = loadModelRegistry(home, { ANTHROPIC_API_KEY: "k" });
		expect(fromFile.resolve().model.baseUrl).toBe("https://proxy.example");
		const fromEnv = loadModelRegistry(home, { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "http://127.0.0.1:9" });
		expect(fromEnv.resolve().model.baseUrl).toBe("http://127.0.0.1:9");
		expect(fromEnv.resolve({ baseUrl: "http://explicit" }).model.baseUrl).toBe("http://explicit");
		const openai = loadModelRegistry(home, { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "http://127.0.0.1:8/v1" });
		expect(openai.resolve({ provider: "openai" }).model.baseUrl).toBe("http://127.0.0.1:8/v1");
	});

	it("lets models.json correct a built-in model's limits and prices", async () => {
		await writeModels({ providers: { anthropic: { models: [{ id: "claude-haiku-4-5", contextWindow: 100000, cost: { input: 9 } }] } } });
		const model = loadModelRegistry(home, {}).resolveModel({ modelId: "claude-haiku-4-5" });
		expect(model.contextWindow).toBe(100000);
		expect(model.cost.input).toBe(9);
		expect(model.cost.output).toBe(BUILTIN_MODELS.find((m) => m.id === "claude-haiku-4-5")!.cost.output);
	});

	it("reports invalid JSON with the file path and the parser's reason", async () => {
		const path = await writeModels('{ "providers": { "ollama": { "baseUrl": "x", } } }');
		expect(() => loadModelRegistry(home, {})).toThrow(new RegExp(`^Invalid JSON in ${escape(path)}: `));
	});

	it.each([
		[{ providers: { ollama: { baseUrl: "x", models: [{ id: 3 }] } } }, /providers\.ollama\.models\.0\.id: Expected string/],
		[{ providers: { ollama: { baseUrl: "x", api: "gemini" } } }, /providers\.ollama\.api.*supported: anthropic-messages, openai-completions/],
		[{ providers: { ollama: { models: [{ id: "m" }] } } }, /providers\.ollama: "baseUrl" is required/],
		[{ models: [] }, /providers/],
		[{ providers: { "a/b": { baseUrl: "x" } } }, /provider name "a\/b"/],
	])("reports a wrong shape naming the file and the field (%#)", async (value, expected) => {
		const path = await writeModels(value);
		expect(() => loadModelRegistry(home, {})).toThrow(expected);
		expect(() => loadModelRegistry(home, {})).toThrow(path);
	});

	it("refuses a bare id it does not know, suggesting the closest known ones, yet takes any id under a named provider", () => {
		const registry = loadModelRegistry(home, { OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k" }, { listModels: "loom --list-models shows the known ones." });
		expect(() => registry.resolve({ modelId: "gpt-5.6-tera" })).toThrow(
			/^Unknown model "gpt-5\.6-tera"\. Closest known: openai\/gpt-5\.6-terra\. For a model loom does not list, name its provider: <provider>\/gpt-5\.6-tera/,
		);
		expect(() => registry.resolve({ modelId: "sonnet" })).toThrow(/Closest known: anthropic\/claude-sonnet-5, anthropic\/claude-sonnet-5-5\./);
		expect(registry.suggestModels("sonet")).toEqual(["anthropic/claude-sonnet-5", "anthropic/claude-sonnet-5-5"]);
		expect(registry.suggestModels("gemni-flash")[0]).toMatch(/^google\/gemini-.*flash/);
		expect(() => registry.resolve({ modelId: "claude-sonnet-5-6" })).toThrow(/Closest known: anthropic\/claude-sonnet-5-5, anthropic\/claude-sonnet-5\./);
		// Nothing near: no guesses, only where to look.
		expect(() => registry.resolve({ modelId: "llama3.3:70b" })).toThrow(/^Unknown model "llama3\.3:70b"\. For a model .*loom --list-models/);
		expect(registry.suggestModels("GEMINI-3.1-PRO")[0]).toBe("google/gemini-3.1-pro");
		// A named provider (a local server's model, a model newer than this catalog) takes any id.
		expect(registry.resolve({ modelId: "openai/gpt-5.7" }).model).toMatchObject({ provider: "openai", id: "gpt-5.7" });
		expect(registry.resolve({ provider: "openai", modelId: "gpt-5.7" }).model).toMatchObject({ provider: "openai", id: "gpt-5.7" });
	});

	it("lists every model it knows with whether its provider has a key", async () => {
		await writeModels(OLLAMA);
		const registry = loadModelRegistry(home, { GOOGLE_API_KEY: "g" });
		const listed = registry.availableModels().map(({ model, hasKey }) => [`${model.provider}/${model.id}`, hasKey]);
		expect(listed).toContainEqual(["anthropic/claude-sonnet-5-5", false]);
		expect(listed).toContainEqual(["openai/gpt-5.6-terra", false]);
		expect(listed).toContainEqual(["google/gemini-3.1-pro", true]);
		expect(listed).toContainEqual(["ollama/qwen2.5-coder:14b", true]);
		// A plan's models are listed once signed in to it, or when asked for.
		expect(listed.some(([name]) => String(name).startsWith("chatgpt/"))).toBe(false);
		expect(registry.availableModels(true).map(({ model }) => `${model.provider}/${model.id}`)).toEqual(registry.listModels().map((model) => `${model.provider}/${model.id}`));
	});

	it("takes a plan's key from its login: the token, the account's header and endpoint; a models.json key wins", async () => {
		const login = { access: "access-token-1234", refresh: "refresh-token-1234", expires: Date.now() + 3_600_000 };
		await writeFile(
			join(home, "auth.json"),
			JSON.stringify({ plans: { chatgpt: { ...login, accountId: "acct-7" }, "github-copilot": { ...login, baseUrl: "https://api.business.githubcopilot.com" } } }),
		);
		const registry = loadModelRegistry(home, {});
		const chatgpt = registry.resolve({ provider: "chatgpt" });
		expect(chatgpt).toMatchObject({ apiKey: "access-token-1234", model: { id: "gpt-5.6-terra", api: "openai-responses", headers: { "chatgpt-account-id": "acct-7" } } });
		expect(registry.resolve({ modelId: "github-copilot/gpt-4.1" }).model.baseUrl).toBe("https://api.business.githubcopilot.com");
		expect(registry.credentialFor("chatgpt")).toBe("ChatGPT login");
		expect(registry.credentialFor("chatgpt", "explicit-key")).toBeUndefined();
		expect(registry.availableModels().some(({ model }) => model.provider === "github-copilot")).toBe(true);
		await writeModels({ providers: { chatgpt: { apiKey: "models-json-key" } } });
		const configured = loadModelRegistry(home, {});
		expect(configured.resolve({ provider: "chatgpt" }).apiKey).toBe("models-json-key");
		expect(configured.credentialFor("chatgpt")).toBeUndefined();
	});

	it("serves Gemini with a key from GEMINI_API_KEY or GOOGLE_API_KEY, and says both when neither is set", () => {
		const both = loadModelRegistry(home, { GEMINI_API_KEY: "gem", GOOGLE_API_KEY: "goo" });
		expect(both.resolve({ modelId: "gemini-3.1-pro" })).toMatchObject({ apiKey: "gem", model: { api: "google-generative-ai", contextWindow: 1_048_576 } });
		expect(loadModelRegistry(home, { GOOGLE_API_KEY: "goo" }).resolve({ provider: "google" }).apiKey).toBe("goo");
		expect(() => loadModelRegistry(home, {}, { apiKey: "--api-key" }).resolve({ provider: "google" })).toThrow(
			'No API key for provider "google": set GEMINI_API_KEY (or GOOGLE_API_KEY) or pass --api-key.',
		);
	});

	it("lets models.json give a provider's models an API, and one model its own", async () => {
		await writeModels({
			providers: {
				openai: { api: "openai-completions", models: [{ id: "o3", api: "openai-responses", reasoning: true }] },
				local: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-responses", apiKey: "x", models: [{ id: "gpt-oss" }] },
			},
		});
		const registry = loadModelRegistry(home, { OPENAI_API_KEY: "k" });
		// A compatible proxy that only speaks Chat Completions: the catalog's models follow the provider...
		expect(registry.resolve({ modelId: "gpt-5.6-terra" }).model.api).toBe("openai-completions");
		// ...unless a model says otherwise.
		expect(registry.resolve({ modelId: "o3" }).model).toMatchObject({ api: "openai-responses", reasoning: true });
		expect(registry.resolve({ modelId: "local/gpt-oss" }).model.api).toBe("openai-responses");
		await writeModels({ providers: { local: { baseUrl: "http://x/v1", models: [{ id: "m", api: "gemini" }] } } });
		expect(() => loadModelRegistry(home, {})).toThrow(/providers\.local\.models\.0\.api: unknown API "gemini" \(supported: .*google-generative-ai/);
	});

	it("computes cost from per-million prices", () => {
		const usage = { ...emptyUsage(), input: 2_000_000, output: 100_000, cacheRead: 1_000_000, cacheWrite: 0 };
		const cost = calculateCost({ cost: { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 } }, usage);
		expect(cost).toEqual({ input: 4, output: 1, cacheRead: 0.2, cacheWrite: 0, total: 5.2 });
		expect(usage.cost).toBe(cost);
	});
});

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
