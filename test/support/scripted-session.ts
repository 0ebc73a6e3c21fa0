// Options for an AgentSession on the scripted model server's OpenAI endpoint, with a new session file.
import { loadModelRegistry, streamModel } from "../../src/core/ai/index.js";
import { type AgentSessionOptions, type ModelSelection, SessionStore } from "../../src/core/session/index.js";
import type { ScriptedModelServer } from "./scripted-model-server.mjs";

export type ScriptedSessionOverrides = Omit<Partial<AgentSessionOptions>, "selection"> & { selection?: Partial<ModelSelection> };

export function scriptedSessionOptions(server: ScriptedModelServer, cwd: string, home: string, overrides: ScriptedSessionOverrides = {}): AgentSessionOptions {
	const { selection, ...rest } = overrides;
	return {
		cwd,
		home,
		store: SessionStore.create({ home, cwd }),
		createStore: () => SessionStore.create({ home, cwd }),
		// An empty environment: keys come only from the selection, never from the machine running the tests.
		models: loadModelRegistry(home, {}),
		selection: { provider: "openai", modelId: "scripted-model", baseUrl: server.openaiBaseUrl, apiKey: "test-key", ...selection },
		streamFn: streamModel,
		...rest,
	};
}
