// The one StreamFn the rest of loom uses: dispatches on model.api. Never throws, never rejects.
import { createAssistantMessageEventStream } from "../event-stream.js";
import type { AssistantMessageEventStream, Context, Model } from "../llm-types.js";
import { streamAnthropicMessages } from "./anthropic-messages.js";
import { streamOpenAICompletions } from "./openai-completions.js";
import type { ProviderStreamOptions } from "./provider-run.js";
import { emptyUsage } from "./usage.js";

export function streamModel(model: Model, context: Context, options?: ProviderStreamOptions): AssistantMessageEventStream {
	try {
		if (model.api === "anthropic-messages") return streamAnthropicMessages(model, context, options);
		if (model.api === "openai-completions") return streamOpenAICompletions(model, context, options);
		return failedStream(model, `Unsupported API "${model.api}" for model ${model.provider}/${model.id} (expected "anthropic-messages" or "openai-completions").`);
	} catch (error) {
		// Request building is synchronous inside the providers' prepare step, so this is a last resort.
		return failedStream(model, `Could not start the request: ${error instanceof Error ? error.message : String(error)}`);
	}
}

/**
 * Starts loading the SDK that requests to `model` will use, so the first request does not wait for it
 * (loading one takes tens of milliseconds). Never rejects; a failure shows on the request itself.
 */
export function preloadModelSdk(model: Pick<Model, "api">): Promise<void> {
	// The SDKs send through the global fetch, which Node loads (tens of milliseconds) on first use.
	const loaded = () => void globalThis.fetch;
	if (model.api === "anthropic-messages") return import("@anthropic-ai/sdk").then(loaded, () => {});
	if (model.api === "openai-completions") return import("openai").then(loaded, () => {});
	return Promise.resolve();
}

function failedStream(model: Model, errorMessage: string): AssistantMessageEventStream {
	const stream = createAssistantMessageEventStream();
	const message = {
		role: "assistant" as const,
		content: [],
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: emptyUsage(),
		stopReason: "error" as const,
		errorMessage,
		timestamp: Date.now(),
	};
	stream.push({ type: "start", partial: message });
	stream.push({ type: "error", reason: "error", error: message });
	stream.end();
	return stream;
}
