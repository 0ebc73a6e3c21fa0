// createAgentSession in a fresh workspace on the scripted model server's OpenAI endpoint.
import { createAgentSession, type CreateAgentSessionOptions } from "../../src/sdk/create-agent-session.js";
import { SessionManager } from "../../src/sdk/session-manager.js";
import { ScriptedUi } from "./scripted-ui.js";
import type { ScriptedModelServer } from "./scripted-model-server.mjs";
import { workspace, type Workspace } from "./temp-dir.js";

/** Options pointing at the server (key and endpoint given, so nothing of the machine's environment counts), kept in memory. */
export function scriptedSdkOptions(server: ScriptedModelServer, ws: Workspace, overrides: CreateAgentSessionOptions = {}): CreateAgentSessionOptions {
	return {
		cwd: ws.cwd,
		loomHome: ws.home,
		provider: "openai",
		model: "scripted-model",
		baseUrl: server.openaiBaseUrl,
		apiKey: "test-key",
		sessionManager: SessionManager.inMemory(),
		ui: new ScriptedUi({ interactive: false }),
		...overrides,
	};
}

/** A session on the server in a new workspace; `ws` and the ui's notices come with it. */
export async function scriptedSdkSession(server: ScriptedModelServer, overrides: CreateAgentSessionOptions = {}, ws: Workspace = workspace()) {
	const ui = (overrides.ui as ScriptedUi | undefined) ?? new ScriptedUi({ interactive: false });
	const created = await createAgentSession(scriptedSdkOptions(server, ws, { ...overrides, ui }));
	return { ...created, ws, ui };
}
