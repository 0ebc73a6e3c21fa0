// The provider table: a wire API added the way an extension would add one, as one registered entry, serves
// models.json, streamModel and a whole AgentSession, over real HTTP to the scripted server.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import type { Model, TextContent, ThinkingLevel } from "../../../../src/core/index.js";
import {
	type ApiProvider,
	apiProvider,
	knownApis,
	loadModelRegistry,
	parseModelsJson,
	placeholderModel,
	registerApi,
	runProviderStream,
	streamModel,
} from "../../../../src/core/ai/index.js";
import { readSseBody } from "../../../../src/core/ai/providers/sse-body.js";
import { AgentSession, SessionStore } from "../../../../src/core/session/index.js";
import { useScriptedServer } from "../../../support/use-scripted-server.js";
import { tempDir } from "../../../support/temp-dir.js";
import { collect, context } from "./helpers.js";

const server = useScriptedServer();

/**
 * "chat-lines", a made-up wire API: the conversation's text as `lines`, the thinking setting as `effort`, posted to
 * `<baseUrl>/chat/completions`; the answer is read from the SSE body's `choices[0].delta.content`.
 */
function chatLinesApi(loadSdk = async () => ({})): ApiProvider<string | undefined> {
	const thinking: Record<ThinkingLevel, string | undefined> = { off: undefined, low: "a-little", medium: "some", high: "a-lot" };
	return {
		api: "chat-lines",
		loadSdk,
		thinking,
		stream: (model, llmContext, options = {}) =>
			runProviderStream({
				model,
				options,
				apiKey: options.apiKey,
				prepare: async () => async ({ signal, partial, touch }) => {
					const lines = llmContext.messages.map((message) =>
						typeof message.content === "string"
							? message.content
							: message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join(""),
					);
					const response = await fetch(`${model.baseUrl}/chat/completions`, {
						method: "POST",
						headers: { "content-type": "application/json", authorization: `Bearer ${options.apiKey}` },
						body: JSON.stringify({ model: model.id, lines, effort: thinking[options.reasoning ?? "off"], stream: true }),
						signal,
					});
					if (!response.ok) throw new Error(`HTTP ${response.status}`);
					let text: number | undefined;
					let finished = false;
					await readSseBody(response, "scripted-echo", touch, (_event, data) => {
						if (data.startsWith("[DONE]")) return;
						const chunk = JSON.parse(data);
						const delta = chunk.choices?.[0]?.delta?.content;
						if (typeof delta === "string" && delta !== "") {
							text ??= partial.startText();
							partial.appendText(text, delta);
						}
						if (chunk.choices?.[0]?.finish_reason) finished = true;
					});
					if (!finished) throw new Error("the stream ended early");
					return "stop";
				},
			}),
	};
}

function writeModelsJson(home: string, api: string): void {
	const providers = { lines: { baseUrl: server.openaiBaseUrl, api, apiKey: "lines-key", models: [{ id: "lines-1", reasoning: true }] } };
	writeFileSync(join(home, "models.json"), JSON.stringify({ providers }));
}

function answerText(message: { content: unknown } | undefined): string {
	return ((message?.content ?? []) as TextContent[]).map((part) => part.text).join("");
}

describe("the provider table", () => {
	it("serves a registered API to an AgentSession: models.json names it, the request carries its thinking setting, its SDK is preloaded", async () => {
		const loadSdk = vi.fn(async () => ({}));
		onTestFinished(registerApi(chatLinesApi(loadSdk)));
		expect(knownApis()).toEqual(["anthropic-messages", "openai-completions", "openai-responses", "google-generative-ai", "chat-lines"]);

		const home = tempDir();
		writeModelsJson(home, "chat-lines");
		server.enqueue({ text: "Hello from a new wire API." });
		const session = new AgentSession({
			cwd: "/project",
			home,
			store: SessionStore.create({ home, cwd: "/project" }),
			createStore: () => SessionStore.create({ home, cwd: "/project" }),
			models: loadModelRegistry(home, {}),
			selection: { provider: "lines" },
			streamFn: streamModel,
			systemPrompt: "You are a test.",
			thinkingLevel: "medium",
		});
		onTestFinished(() => session.dispose());

		const outcome = await session.runPrompt("hello table");

		expect(outcome.status).toBe("done");
		expect(answerText(outcome.message)).toBe("Hello from a new wire API.");
		expect(outcome.message).toMatchObject({ api: "chat-lines", provider: "lines", model: "lines-1", stopReason: "stop" });
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0]!.body).toEqual({ model: "lines-1", lines: ["hello table"], effort: "some", stream: true });
		expect(loadSdk).toHaveBeenCalledTimes(1);
	});

	it("once the entry is removed, models.json refuses the name and streamModel answers with an error event", async () => {
		const unregister = registerApi(chatLinesApi());
		unregister();
		expect(knownApis()).toEqual(["anthropic-messages", "openai-completions", "openai-responses", "google-generative-ai"]);

		const home = tempDir();
		writeModelsJson(home, "chat-lines");
		expect(() => loadModelRegistry(home, {})).toThrow(
			/providers\.lines\.api: unknown API "chat-lines" \(supported: anthropic-messages, openai-completions, openai-responses, google-generative-ai\)/,
		);
		const model: Model = { ...placeholderModel({ id: "lines-1", provider: "lines" }), api: "chat-lines" };
		const { message } = await collect(streamModel(model, context(), { apiKey: "k" }));
		expect(message.errorMessage).toBe(
			'Unsupported API "chat-lines" for model lines/lines-1 (expected "anthropic-messages" or "openai-completions" or "openai-responses" or "google-generative-ai").',
		);
	});

	it("refuses a second entry under a name already in the table", () => {
		expect(() => registerApi({ ...apiProvider("anthropic-messages")! })).toThrow('The API "anthropic-messages" is already registered.');
		expect(() => parseModelsJson(JSON.stringify({ providers: { a: { baseUrl: "x", api: "anthropic-messages" } } }), "m.json")).not.toThrow();
	});
});
