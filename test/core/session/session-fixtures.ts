// Small message builders for session tests, and a session on the scripted model server.
import { Type } from "@sinclair/typebox";
import type { AgentTool, AssistantMessage, ToolResultMessage, UserMessage } from "../../../src/core/index.js";
import type { AgentSessionOptions } from "../../../src/core/session/index.js";
import type { ScriptedModelServer } from "../../support/scripted-model-server.mjs";
import { type ScriptedSessionOverrides, scriptedSessionOptions as onScriptedServer } from "../../support/scripted-session.js";

/** An AgentSession's options for the scripted server's OpenAI endpoint, a fresh session file in `home`, no tools. */
export function scriptedSessionOptions(server: ScriptedModelServer, home: string, overrides: ScriptedSessionOverrides = {}): AgentSessionOptions {
	return onScriptedServer(server, "/project", home, { systemPrompt: "You are a test.", ...overrides });
}

export function user(text: string): UserMessage {
	return { role: "user", content: text, timestamp: Date.now() };
}

export function assistant(text: string): AssistantMessage {
	return {
		role: "assistant",
		content: [{ type: "text", text }],
		api: "openai-completions",
		provider: "openai",
		model: "test-model",
		usage: {
			input: 10,
			output: 5,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 15,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: "stop",
		timestamp: Date.now(),
	};
}

export function toolResult(text: string): ToolResultMessage {
	return { role: "toolResult", toolCallId: "call_1", toolName: "bash", content: [{ type: "text", text }], isError: false, timestamp: Date.now() };
}

/** A pretend `shell` tool: records each command in `executed` and answers with `output(command)`. */
export function pretendShell(executed: string[], output: (command: string) => string = (command) => `ran ${command}`): AgentTool {
	return {
		name: "shell",
		label: "Shell",
		description: "Runs a command (pretend).",
		parameters: Type.Object({ command: Type.String() }),
		async execute(_id, params: { command: string }) {
			executed.push(params.command);
			return { content: [{ type: "text", text: output(params.command) }], details: { code: 0 } };
		},
	};
}
