// Which model and thinking level the session file last recorded, so each change is written once.
import type { ThinkingLevel } from "../ai/index.js";
import type { SessionContext } from "./compaction/index.js";
import type { SessionStore } from "./store/index.js";

export class SettingsRecord {
	private model: string | undefined;
	private thinking: ThinkingLevel | undefined;

	constructor(context: SessionContext) {
		this.reset(context);
	}

	/** Takes what an opened or resumed file recorded last. */
	reset(context: SessionContext): void {
		this.model = context.model && `${context.model.provider}/${context.model.modelId}`;
		this.thinking = context.thinkingLevel;
	}

	hasModel(provider: string, modelId: string): boolean {
		return this.model === `${provider}/${modelId}`;
	}

	/** Appends model_change / thinking_change entries for what changed (a model only once it is usable). Throws on a write failure. */
	write(store: SessionStore, current: { provider: string; modelId: string; usable: boolean; thinking: ThinkingLevel }): void {
		const model = `${current.provider}/${current.modelId}`;
		if (current.usable && this.model !== model) {
			store.append({ type: "model_change", provider: current.provider, modelId: current.modelId });
			this.model = model;
		}
		if (this.thinking !== current.thinking) {
			store.append({ type: "thinking_change", thinkingLevel: current.thinking });
			this.thinking = current.thinking;
		}
	}
}
