// createAgentSession in a fresh workspace on the scripted model server's OpenAI endpoint, and a SessionUi that
// records what it was told and answers questions as scripted.
import { createAgentSession, type CreateAgentSessionOptions } from "../../src/sdk/create-agent-session.js";
import { SessionManager } from "../../src/sdk/session-manager.js";
import type { NoticeLevel, SessionUi } from "../../src/core/session/index.js";
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
		ui: recordingUi(),
		...overrides,
	};
}

/** A session on the server in a new workspace; `ws` and the ui's notices come with it. */
export async function scriptedSdkSession(server: ScriptedModelServer, overrides: CreateAgentSessionOptions = {}, ws: Workspace = workspace()) {
	const ui = (overrides.ui as RecordingUi | undefined) ?? recordingUi();
	const created = await createAgentSession(scriptedSdkOptions(server, ws, { ...overrides, ui }));
	return { ...created, ws, ui };
}

export interface RecordingUi extends SessionUi {
	/** "level: text", in order. */
	readonly notices: string[];
	/** The titles of the questions asked, in order. */
	readonly asked: string[];
}

/**
 * `answers`: what each select gets in turn (undefined: dismissed); without answers the ui is not interactive.
 * Confirm answers true for a true answer.
 */
export function recordingUi(answers?: unknown[]): RecordingUi {
	const notices: string[] = [];
	const asked: string[] = [];
	const next = () => (answers && answers.length > 0 ? answers.shift() : undefined);
	return {
		interactive: answers !== undefined,
		notices,
		asked,
		notify(level: NoticeLevel, text: string) {
			notices.push(`${level}: ${text}`);
		},
		async select(options) {
			asked.push(options.title);
			return next() as never;
		},
		async confirm(title) {
			asked.push(title);
			return next() === true;
		},
		async input(title) {
			asked.push(title);
			return next() as string | undefined;
		},
	};
}
