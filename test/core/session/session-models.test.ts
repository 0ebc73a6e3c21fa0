// Choosing models in a session: the /model picker and its validation, a switch taking effect from the next
// request, the context window that follows the model, and the usage /session shows.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import type { AgentTool } from "../../../src/core/index.js";
import {
	AgentSession,
	type AgentSessionOptions,
	type CommandSession,
	type SessionEvent,
	type SessionUi,
	SessionStore,
	type UiChoice,
} from "../../../src/core/session/index.js";
import { ScriptedUi } from "../../support/scripted-ui.js";
import { tempDir } from "../../support/temp-dir.js";
import { useScriptedServer } from "../../support/use-scripted-server.js";
import { scriptedSessionOptions } from "./session-fixtures.js";

const server = useScriptedServer();

/** A home whose models.json has a local Responses server with two models of different windows, and a Gemini one. */
function homeWithModels(): string {
	const home = tempDir();
	const providers = {
		local: {
			baseUrl: server.openaiBaseUrl,
			api: "openai-responses",
			apiKey: "local-key",
			models: [
				{ id: "small", contextWindow: 1000, reasoning: true, cost: { input: 1, output: 2 } },
				{ id: "big", contextWindow: 10_000 },
			],
		},
		gem: { baseUrl: server.googleBaseUrl, api: "google-generative-ai", apiKey: "gem-key", models: [{ id: "flash", contextWindow: 50_000 }] },
	};
	writeFileSync(join(home, "models.json"), JSON.stringify({ providers }));
	return home;
}

function makeSession(overrides: Partial<AgentSessionOptions> = {}, home = homeWithModels()) {
	const session = new AgentSession(scriptedSessionOptions(server, home, { selection: { provider: "local", modelId: "small" }, ...overrides }));
	const events: SessionEvent[] = [];
	session.subscribe((event) => {
		events.push(event);
	});
	return { session, events, home };
}

/** A SessionUi that answers its one picker with `answer(choices)`; `shown` is what the pickers showed. */
function pickingUi(answer: (choices: readonly UiChoice<unknown>[]) => unknown, interactive = true) {
	const ui = new ScriptedUi({ interactive }).choose(answer);
	return { ui, shown: () => ui.asked.map(({ options, choices }) => ({ ...options, choices })) };
}

async function runCommand(session: AgentSession, line: string, ui?: SessionUi): Promise<string[]> {
	const [name, ...rest] = line.slice(1).split(" ");
	const notices: string[] = [];
	const command = session.commands.get(name!)!;
	await command.handler(rest.join(" "), { session: session as CommandSession, notify: (_level, text) => notices.push(text), busy: false, ui });
	return notices;
}

describe("choosing the session's model", () => {
	it("/model without an id offers every known model, with its window and whether a key is set, and switches to the one chosen", async () => {
		const { session, events } = makeSession();
		const { ui, shown } = pickingUi((choices) => choices.find((choice) => choice.label === "gem/flash")!.value);
		await runCommand(session, "/model", ui);

		const picker = shown()[0]!;
		expect(picker.filter).toBe(true);
		expect(picker.title).toBe("Model (now local/small)");
		expect(picker.choices[picker.initialIndex!]!.label).toBe("local/small");
		expect(picker.choices).toContainEqual({ label: "local/big", value: "local/big", description: "big · 10k context" });
		// The environment of this session has no keys: built-in providers are listed, marked.
		expect(picker.choices).toContainEqual({ label: "google/gemini-3.1-pro", value: "google/gemini-3.1-pro", description: "Gemini 3.1 Pro · 1.0M context · no key" });
		expect([session.provider, session.modelId]).toEqual(["gem", "flash"]);
		expect(events).toContainEqual({ type: "model_changed", provider: "gem", model: "flash" });
	});

	it("/model counts the key given for the provider in use (--api-key) and lists the model in use though no catalog names it", async () => {
		const { session } = makeSession({ selection: { provider: "openai", modelId: "scripted", baseUrl: server.openaiBaseUrl, apiKey: "test-key" } });
		const { ui, shown } = pickingUi(() => undefined);
		await runCommand(session, "/model", ui);

		const picker = shown()[0]!;
		expect(picker.choices[picker.initialIndex!]!.label).toBe("openai/scripted");
		expect(picker.choices).toContainEqual(expect.objectContaining({ label: "openai/scripted", description: expect.not.stringContaining("no key") }));
		expect(picker.choices).toContainEqual({ label: "openai/gpt-5.6-terra", value: "openai/gpt-5.6-terra", description: "GPT-5.6 Terra · 1.0M context" });
		// The key belongs to its provider: the others still have none.
		expect(picker.choices).toContainEqual({ label: "google/gemini-3.1-pro", value: "google/gemini-3.1-pro", description: "Gemini 3.1 Pro · 1.0M context · no key" });
		expect(picker.choices.filter((choice) => choice.label === "openai/scripted")).toHaveLength(1);
	});

	it("/model keeps the model when the picker is dismissed, and says which it is where nobody can choose", async () => {
		const { session, events } = makeSession();
		await runCommand(session, "/model", pickingUi(() => undefined).ui);
		expect(session.modelId).toBe("small");
		const notices = await runCommand(session, "/model", pickingUi(() => "local/big", false).ui);
		expect(notices).toEqual(["Model: local/small. Switch with /model <id>."]);
		expect(session.modelId).toBe("small");
		expect(events.some((event) => event.type === "model_changed")).toBe(false);
	});

	it("/model with an unknown id says it is unknown and names the closest known ones; provider/id takes any id", async () => {
		const { session } = makeSession();
		await expect(runCommand(session, "/model bgi")).rejects.toThrow(/^Unknown model "bgi"\. Closest known: local\/big\. For a model loom does not list, name its provider: <provider>\/bgi/);
		expect(session.modelId).toBe("small");
		await runCommand(session, "/model local/brand-new");
		expect([session.provider, session.modelId]).toEqual(["local", "brand-new"]);
	});

	it("a model chosen during a run answers from the run's next request on, with its own key", async () => {
		let switching: Promise<void> | undefined;
		const { session } = makeSession();
		const switchTool: AgentTool = {
			name: "switch",
			label: "Switch",
			description: "Switches the model.",
			parameters: Type.Object({}),
			async execute() {
				switching = session.setModel("gem/flash");
				return { content: [{ type: "text", text: "switched" }], details: {} };
			},
		};
		session.setTools([{ ...switchTool }]);
		server.enqueue({ toolCalls: [{ id: "call_s", name: "switch", arguments: {} }] }, { text: "Now on Gemini." });
		const outcome = await session.runPrompt("switch models");
		await switching;

		expect(outcome.status).toBe("done");
		expect(server.requests.map((request) => [request.format, request.body.model ?? request.path])).toEqual([
			["openai-responses", "small"],
			["google", "/v1beta/models/flash:streamGenerateContent"],
		]);
		expect(server.requests[1]!.headers["x-goog-api-key"]).toBe("[redacted]");
		expect(outcome.message?.content).toEqual([{ type: "text", text: "Now on Gemini." }]);
	});

	it("measures the context against the window of the model now chosen", async () => {
		const { session } = makeSession();
		server.enqueue({ text: "ok", usage: { input: 500, output: 100 } });
		await session.runPrompt("hi");
		expect(session.contextUsage).toMatchObject({ tokens: 600, contextWindow: 1000, percent: 60 });
		await session.setModel("local/big");
		expect(session.contextUsage).toMatchObject({ tokens: 600, contextWindow: 10_000, percent: 6 });
	});

	it("prices a catalog Gemini model's usage at the catalog's prices, cached input and thinking included", async () => {
		const { session } = makeSession({
			selection: { provider: "google", modelId: "gemini-3.5-flash", baseUrl: server.googleBaseUrl, apiKey: "k" },
		});
		server.enqueue({ thinking: "hm", text: "ok", usage: { input: 1000, cacheRead: 2000, output: 300, reasoning: 100 } });
		await session.runPrompt("hi");
		// Gemini 3.5 Flash: $1.50 in, $9 out, $0.15 cached, per million tokens.
		expect(session.usageTotals).toMatchObject({ input: 1000, cacheRead: 2000, output: 300, reasoning: 100 });
		expect(session.usageTotals.cost).toBeCloseTo((1000 * 1.5 + 300 * 9 + 2000 * 0.15) / 1e6, 12);
		session.dispose();
	});

	it("/session shows cached and reasoning tokens apart, and a session saved before reasoning was counted still opens", async () => {
		const { session, home } = makeSession();
		server.enqueue({ thinking: "Let me think.", text: "Done.", usage: { input: 1000, cacheRead: 3000, output: 500, reasoning: 200 } });
		await session.runPrompt("think");
		const [text] = await runCommand(session, "/session");
		expect(text).toContain("Tokens: ↑4.0k in (3.0k cached) · ↓500 out (200 reasoning)");
		expect(session.usageTotals).toMatchObject({ input: 1000, cacheRead: 3000, output: 500, reasoning: 200 });
		const file = session.sessionFile!;
		session.dispose();

		// The same file as an older loom wrote it: no reasoning count anywhere.
		writeFileSync(file, readFileSync(file, "utf8").replace(/,"reasoning":\d+/g, ""));
		const { session: reopened } = makeSession({ store: await SessionStore.open(file) }, home);
		expect(reopened.loadWarnings).toEqual([]);
		expect(reopened.usageTotals).toEqual({ input: 1000, output: 500, cacheRead: 3000, cacheWrite: 0, cost: expect.any(Number) });
		const [old] = await runCommand(reopened, "/session");
		expect(old).toContain("Tokens: ↑4.0k in (3.0k cached) · ↓500 out\n");
		reopened.dispose();
	});
});
