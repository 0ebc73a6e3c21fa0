// The session's model: what the user selected, what it resolved to (model + key), or why it cannot be used.
import type { Model, ModelListing } from "../ai/index.js";
import { placeholderModel } from "../ai/index.js";

/** What the user asked for; the resolver turns it into a model and a key. */
export interface ModelSelection {
	provider?: string;
	/** A model id, or "provider/id". */
	modelId?: string;
	baseUrl?: string;
	apiKey?: string;
}

/** The provider registry, as far as a session needs it (src/core/llm's ModelRegistry satisfies this). */
export interface ModelResolver {
	/** Throws an Error whose message tells the user what to set when the model cannot be used. */
	resolve(selection: ModelSelection): { model: Model; apiKey?: string };
	/**
	 * The model a selection names, without checking keys; throws when no provider or model fits (a bare id
	 * nobody lists, with the closest known ones).
	 */
	resolveModel(selection: ModelSelection): Model;
	/** Every model known, with whether its provider has a key now (for pickers and lists). */
	availableModels(): ModelListing[];
	/** The key a request carries now (a plan's login renewed when due); rejects with what to do when there is none. */
	freshApiKey?(provider: string, explicit?: string): Promise<string | undefined>;
	/** The login a provider's requests are signed in with, in words ("ChatGPT login"), or undefined for a key. */
	credentialFor?(provider: string, explicit?: string): string | undefined;
}

export class ModelChoice {
	private selection: ModelSelection;
	private resolved: { model: Model; apiKey?: string } | undefined;
	/** The model the selection names even when it cannot be used (no key), for display. */
	private named: Model | undefined;
	private problem: string | undefined;

	constructor(
		private readonly resolver: ModelResolver,
		selection: ModelSelection,
	) {
		this.selection = { ...selection };
		this.tryResolve();
	}

	/** The resolved model, or a stand-in carrying the selected names so the session can open and explain. */
	get model(): Model {
		const { modelId = "unknown", provider = "unknown", baseUrl } = this.selection;
		return this.resolved?.model ?? this.named ?? placeholderModel({ id: modelId, provider, baseUrl });
	}
	get apiKey(): string | undefined {
		return this.resolved?.apiKey;
	}
	/** The key for the next request: a plan's login is renewed first when about to expire (may reject, saying why). */
	async currentApiKey(): Promise<string | undefined> {
		if (!this.resolved) return undefined;
		if (!this.resolver.freshApiKey) return this.resolved.apiKey;
		return (await this.resolver.freshApiKey(this.provider, this.selection.apiKey)) ?? this.resolved.apiKey;
	}
	/** What requests are signed in with when it is a login, not a key ("GitHub Copilot login"), for the footer and /session. */
	get credential(): string | undefined {
		return this.resolver.credentialFor?.(this.provider, this.selection.apiKey);
	}
	get provider(): string {
		return this.model.provider;
	}
	get modelId(): string {
		return this.model.id;
	}
	get isUsable(): boolean {
		return this.resolved !== undefined;
	}
	/** Why the model cannot be used (missing key, unknown provider), or undefined. */
	get error(): string | undefined {
		return this.problem;
	}

	/**
	 * Every model known, with whether a key is at hand: the provider in use counts the key its selection carries
	 * (--api-key), and the model in use is listed first when no catalog names it (an id at --base-url).
	 */
	availableModels(): ModelListing[] {
		const explicitKey = this.selection.apiKey ? this.provider : undefined;
		const listings = this.resolver.availableModels().map((listing) =>
			listing.model.provider === explicitKey ? { ...listing, hasKey: true } : listing,
		);
		const current = this.resolved?.model ?? this.named;
		if (!current || listings.some(({ model }) => model.provider === current.provider && model.id === current.id)) return listings;
		return [{ model: current, hasKey: this.resolved !== undefined }, ...listings];
	}

	/** Resolves again if needed (e.g. the environment changed); true when usable. */
	ensure(): boolean {
		return this.resolved !== undefined || this.tryResolve();
	}

	/**
	 * Switches to another model; throws (keeping the current one) when it cannot be used. A bare id must be one a
	 * provider lists (the error names the closest known ones); "provider/id" takes any id. Staying on the same
	 * provider keeps its endpoint and key overrides (--base-url, --api-key).
	 */
	change(ref: string | ModelSelection): Model {
		const selection = typeof ref === "string" ? this.selectionFor(ref) : { ...ref };
		const resolved = this.resolver.resolve(selection);
		this.selection = selection;
		this.resolved = resolved;
		this.problem = undefined;
		return resolved.model;
	}

	private selectionFor(ref: string): ModelSelection {
		const found = this.resolver.resolveModel({ modelId: ref });
		if (found.provider === this.provider) return { ...this.selection, provider: found.provider, modelId: found.id };
		return { provider: found.provider, modelId: found.id };
	}

	private tryResolve(): boolean {
		try {
			this.resolved = this.resolver.resolve(this.selection);
			this.problem = undefined;
			return true;
		} catch (error) {
			this.resolved = undefined;
			this.problem = (error as Error).message;
			try {
				this.named = this.resolver.resolveModel(this.selection);
			} catch {
				this.named = undefined;
			}
			return false;
		}
	}
}
