// The one StreamFn the rest of loom uses: dispatches on model.api through the provider table. Never throws, never rejects.
import { errorMessage } from "../lib/index.js";
import { createAssistantMessageEventStream } from "./messages.js";
import type { AssistantMessageEventStream, Context, Model } from "./llm-types.js";
import { errorAssistantMessage } from "./messages.js";
import { apiProvider, knownApis, type ProviderStreamOptions } from "./providers/index.js";

export function streamModel(model: Model, context: Context, options?: ProviderStreamOptions): AssistantMessageEventStream {
	try {
		const provider = apiProvider(model.api);
		if (provider) return provider.stream(model, context, options);
		const expected = knownApis().map((api) => `"${api}"`).join(" or ");
		return failedStream(model, `Unsupported API "${model.api}" for model ${model.provider}/${model.id} (expected ${expected}).`);
	} catch (error) {
		// Request building is synchronous inside the providers' prepare step, so this is a last resort.
		return failedStream(model, `Could not start the request: ${errorMessage(error)}`);
	}
}

/**
 * Starts loading the SDK that requests to `model` will use, so the first request does not wait for it
 * (loading one takes tens of milliseconds). Never rejects; a failure shows on the request itself.
 */
export function preloadModelSdk(model: Pick<Model, "api">): Promise<void> {
	const provider = apiProvider(model.api);
	if (!provider) return Promise.resolve();
	return Promise.resolve()
		.then(() => provider.loadSdk())
		.then(
			() => {},
			() => {},
		);
}

function failedStream(model: Model, errorMessage: string): AssistantMessageEventStream {
	const stream = createAssistantMessageEventStream();
	const message = errorAssistantMessage(model, errorMessage);
	stream.push({ type: "start", partial: message });
	stream.push({ type: "error", reason: "error", error: message });
	stream.end();
	return stream;
}
