import { describe, expect, it } from "vitest";
import type { ModelListing } from "../../../src/core/ai/models/model-registry.js";
import { placeholderModel } from "../../../src/core/ai/models-catalog.js";
import { FakeSession } from "../fake-session.js";
import { mount } from "../mount-app.js";

const ENTER = "\r";
const ESC = "\u001b";
const DOWN = "\u001b[B";

function listing(provider: string, id: string, name: string, contextWindow: number, hasKey = true): ModelListing {
	return { model: { ...placeholderModel({ id, provider }), name, contextWindow }, hasKey };
}

function withModels(): FakeSession {
	const session = new FakeSession();
	session.models = [
		listing("test", "test-model", "Test model", 100_000),
		listing("anthropic", "claude-sonnet-4-5", "Claude Sonnet 4.5", 200_000),
		listing("openai", "gpt-5", "GPT-5", 400_000, false),
	];
	return session;
}

describe("/model without an id", () => {
	it("lists the registry's models, the current one highlighted, filters as you type and switches to the one chosen", async () => {
		const session = withModels();
		const screen = mount(session);
		await screen.until((f) => f.includes("Ask loom"));
		await screen.type("/model", ENTER);
		let frame = await screen.until((f) => f.includes("Model (now test/test-model)"));
		expect(frame).toMatch(/› test\/test-model {2,}Test model · 100k context/);
		expect(frame).toContain("anthropic/claude-sonnet-4-5  Claude Sonnet 4.5 · 200k context");
		expect(frame).toMatch(/openai\/gpt-5\s+GPT-5 · 400k context · no key/);
		// Descriptions start in one column.
		expect(frame.indexOf("Test model") - frame.lastIndexOf("\n", frame.indexOf("Test model"))).toBe(frame.indexOf("Claude Sonnet 4.5") - frame.lastIndexOf("\n", frame.indexOf("Claude Sonnet 4.5")));
		await screen.type("gpt");
		frame = await screen.until((f) => f.includes("filter: gpt"));
		expect(frame).not.toContain("claude");
		await screen.type(ENTER);
		await screen.until((f) => f.includes("Model: test/openai/gpt-5") || f.includes("openai/gpt-5 ·"));
		expect(session.calls.models).toEqual(["openai/gpt-5"]);
	});

	it("changes nothing on Esc or when the current model is chosen again", async () => {
		const session = withModels();
		const screen = mount(session);
		await screen.until((f) => f.includes("Ask loom"));
		await screen.type("/model", ENTER);
		await screen.until((f) => f.includes("Model (now"));
		await screen.type(ESC);
		await screen.until((f) => !f.includes("Model (now"));
		await screen.type("/model", ENTER);
		await screen.until((f) => f.includes("Model (now"));
		await screen.type(ENTER);
		await screen.until((f) => !f.includes("Model (now"));
		expect(session.calls.models).toEqual([]);
	});

	it("names the current model when the session lists none", async () => {
		const screen = mount(new FakeSession());
		await screen.until((f) => f.includes("Ask loom"));
		await screen.type("/model", ENTER);
		await screen.until((f) => f.includes("Model: test/test-model. Switch with /model <id>."));
	});
});

describe("/resume without an argument", () => {
	it("opens the session picked from the list", async () => {
		const session = new FakeSession();
		session.sessions = [
			{ file: "/s/one.jsonl", id: "one", modified: new Date("2026-01-02T10:00:00Z"), firstPrompt: "refactor the parser", messageCount: 12 },
			{ file: "/s/two.jsonl", id: "two", modified: new Date("2026-01-01T09:00:00Z"), firstPrompt: "write the docs", messageCount: 3 },
		];
		const screen = mount(session);
		await screen.until((f) => f.includes("Ask loom"));
		await screen.type("/resume", ENTER);
		await screen.until((f) => f.includes("Resume which session?"));
		await screen.type(DOWN, ENTER);
		await screen.until((f) => f.includes("Resumed session with 7 messages"));
		expect(session.calls.resumed).toEqual(["/s/two.jsonl"]);
	});

	it("shows when each session was last used, relative while recent, kept in view at 60 columns however long its prompt", async () => {
		const session = new FakeSession();
		const long = "please refactor the authentication module so that it uses the new token store everywhere";
		session.sessions = [
			{ file: "/s/one.jsonl", id: "one", modified: new Date(Date.now() - 2 * 3600_000 - 60_000), firstPrompt: long, messageCount: 12 },
			{ file: "/s/two.jsonl", id: "two", modified: new Date(2025, 10, 3, 9, 0), firstPrompt: "write the docs", messageCount: 3 },
		];
		const screen = mount(session, { columns: 60, rows: 20 });
		await screen.until((f) => f.includes("Ask loom"));
		await screen.type("/resume", ENTER);
		const frame = await screen.until((f) => f.includes("Resume which session?"));
		const rows = frame.split("\n");
		expect(rows.find((row) => row.includes("please refactor"))).toMatch(/please refactor the auth\S*… +2h ago · 12 messages│$/);
		expect(rows.find((row) => row.includes("write the docs"))).toMatch(/write the docs +2025-11-03 · 3 messages *│$/);
		// The keys' hint under the list is whole, not cut.
		expect(rows.find((row) => row.includes("esc"))).not.toContain("…");
	});
});
