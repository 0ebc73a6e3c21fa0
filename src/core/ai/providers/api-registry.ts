// The provider table: one entry per wire API. The dispatcher (streamModel), the SDK preload and the models.json
// validator read it, so adding an API is one file (its stream function and thinking settings), its name in
// BuiltinApi (llm-types.ts) and one line in BUILTIN_APIS below; the compiler holds the two lists together.
import type { AssistantMessageEventStream, BuiltinApi, Context, Model, ThinkingLevel } from "../llm-types.js";
import { ANTHROPIC_THINKING, streamAnthropicMessages } from "./anthropic-messages.js";
import { GOOGLE_THINKING, streamGoogleGenerativeAi } from "./google-generative-ai.js";
import { OPENAI_REASONING_EFFORT, streamOpenAICompletions } from "./openai-completions.js";
import { OPENAI_RESPONSES_REASONING, streamOpenAIResponses } from "./openai-responses.js";
import type { ProviderStreamOptions } from "./provider-run.js";

export interface ApiProvider<TThinking = unknown> {
	/** The wire API's name, as a model's and a models.json provider's `api` give it. */
	readonly api: string;
	/** Streams one assistant message. Never throws and never rejects (see StreamFn). */
	stream(model: Model, context: Context, options?: ProviderStreamOptions): AssistantMessageEventStream;
	/** Loads the SDK the stream uses (lazily: startup never pays for it), so a first request need not wait. */
	loadSdk(): Promise<unknown>;
	/** What each thinking level asks of this API; the request builder reads its settings from here. */
	readonly thinking: Readonly<Record<ThinkingLevel, TThinking>>;
}

/**
 * A built-in entry, typed by its name alone: the package's declarations must not carry the SDKs' own types (the
 * Gemini one is only a development dependency).
 */
function builtin<const Name extends BuiltinApi, TThinking>(provider: ApiProvider<TThinking> & { api: Name }): ApiProvider & { readonly api: Name } {
	return provider;
}

/** The built-in wire APIs. The SDKs are imported only when a request (or the preload) asks for them. */
const BUILTIN_APIS = [
	builtin({ api: "anthropic-messages", stream: streamAnthropicMessages, loadSdk: () => import("@anthropic-ai/sdk"), thinking: ANTHROPIC_THINKING }),
	builtin({ api: "openai-completions", stream: streamOpenAICompletions, loadSdk: () => import("openai"), thinking: OPENAI_REASONING_EFFORT }),
	builtin({ api: "openai-responses", stream: streamOpenAIResponses, loadSdk: () => import("openai"), thinking: OPENAI_RESPONSES_REASONING }),
	// Sent with fetch (see google-generative-ai.ts): no SDK to load.
	builtin({ api: "google-generative-ai", stream: streamGoogleGenerativeAi, loadSdk: async () => undefined, thinking: GOOGLE_THINKING }),
] as const;

// Each name of BuiltinApi has its entry above: this line fails to compile when one is missing.
true satisfies [Exclude<BuiltinApi, (typeof BUILTIN_APIS)[number]["api"]>] extends [never] ? true : false;

const table = new Map<string, ApiProvider>(BUILTIN_APIS.map((entry) => [entry.api, entry]));

/**
 * Adds a wire API, for every model whose `api` names it from now on (an extension's, a test's).
 * Returns the function that removes it again. A name already in the table is refused.
 */
export function registerApi(provider: ApiProvider<any>): () => void {
	if (table.has(provider.api)) throw new Error(`The API "${provider.api}" is already registered.`);
	table.set(provider.api, provider);
	return () => {
		if (table.get(provider.api) === provider) table.delete(provider.api);
	};
}

/** The table's entry for an API name, if any. */
export function apiProvider(api: string): ApiProvider | undefined {
	return table.get(api);
}

/** Every API name in the table, built-in first. */
export function knownApis(): string[] {
	return [...table.keys()];
}
