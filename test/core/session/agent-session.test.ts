// AgentSession against the real providers and the scripted model server on 127.0.0.1.
import { readFileSync } from "node:fs";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import type { AgentTool } from "../../../src/core/index.js";
import {
	AgentSession,
	type AgentSessionOptions,
	loadSessionFile,
	type SessionEvent,
	SessionStore,
} from "../../../src/core/session/index.js";
import { streamModel } from "../../../src/core/ai/index.js";
import { tempDir } from "../../support/temp-dir.js";
import { scriptedSessionOptions } from "./session-fixtures.js";
import { useScriptedServer } from "../../support/use-scripted-server.js";

const server = useScriptedServer();

const echoTool: AgentTool = {
	name: "echo",
	label: "Echo",
	description: "Echoes its text.",
	parameters: Type.Object({ text: Type.String() }),
	async execute(_id, params: { text: string }) {
		return { content: [{ type: "text", text: `echo: ${params.text}` }], details: {} };
	},
};

function makeSession(overrides: Partial<AgentSessionOptions> = {}, home = tempDir()) {
	const session = new AgentSession(scriptedSessionOptions(server, home, { tools: [echoTool], ...overrides }));
	const events: SessionEvent[] = [];
	session.subscribe((event) => {
		events.push(event);
	});
	return { session, events, home };
}

function fileLines(file: string): any[] {
	return readFileSync(file, "utf8")
		.trim()
		.split("\n")
		.map((line) => JSON.parse(line));
}

function requestRoles(index: number): string[] {
	return server.requests[index]!.body.messages.map((m: any) => m.role);
}

describe("AgentSession", () => {
	it("opens, runs a prompt and appends every message to the session file", async () => {
		server.enqueue({ text: "Hello there." });
		const { session, events } = makeSession();
		const outcome = await session.runPrompt("hi");

		expect(outcome.status).toBe("done");
		expect(outcome.message?.content).toEqual([{ type: "text", text: "Hello there." }]);
		expect(events[0]).toMatchObject({ type: "session_open", provider: "openai", model: "scripted-model", messageCount: 0 });
		expect(events.map((e) => e.type)).toContain("agent_end");
		const lines = fileLines(session.sessionFile!);
		expect(lines.map((l) => l.type)).toEqual(["session", "model_change", "thinking_change", "message", "message"]);
		expect(lines[1]).toMatchObject({ provider: "openai", modelId: "scripted-model" });
		expect(lines[3].message).toMatchObject({ role: "user", content: "hi" });
		expect(lines[4].message).toMatchObject({ role: "assistant", stopReason: "stop" });
		expect(server.requests[0]!.headers.authorization).toBe("[redacted]");
		session.dispose();
	});

	it("continues a saved session: the model sees the earlier messages", async () => {
		server.enqueue({ text: "first answer" }, { text: "second answer" });
		const { session, home } = makeSession();
		await session.prompt("first question");
		session.dispose();

		const store = await SessionStore.open(session.sessionFile!);
		const { session: resumed, events } = makeSession({ store }, home);
		await resumed.start();
		expect(events[0]).toMatchObject({ type: "session_open", messageCount: 2, file: session.sessionFile });
		await resumed.prompt("second question");
		const contents = server.requests[1]!.body.messages.map((m: any) => m.content);
		expect(requestRoles(1)).toEqual(["system", "user", "assistant", "user"]);
		expect(JSON.stringify(contents)).toContain("first question");
		expect(JSON.stringify(contents)).toContain("first answer");
		// Same model as before: no second model_change entry.
		expect(fileLines(session.sessionFile!).filter((l) => l.type === "model_change")).toHaveLength(1);
		resumed.dispose();
	});

	it("runs a tool call and sends its result back; the file keeps calls and results in order", async () => {
		server.enqueue(
			{ toolCalls: [{ id: "call_a", name: "echo", arguments: { text: "one" } }, { id: "call_b", name: "echo", arguments: { text: "two" } }] },
			{ text: "done" },
		);
		const { session, events } = makeSession();
		await session.prompt("use the tool");
		expect(events.filter((e) => e.type === "tool_execution_end")).toHaveLength(2);
		expect(requestRoles(1)).toEqual(["system", "user", "assistant", "tool", "tool"]);
		const saved = (await loadSessionFile(session.sessionFile!)).entries.flatMap((e) => (e.type === "message" ? [e.message] : []));
		expect(saved.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "assistant"]);
		expect(saved.slice(2).map((m: any) => m.content?.[0]?.text)).toEqual(["echo: one", "echo: two", "done"]);
		session.dispose();
	});

	it("says when each call's execute() begins (tool_execution_running), after the before-chain let it through", async () => {
		server.enqueue(
			{ toolCalls: [{ id: "call_a", name: "echo", arguments: { text: "one" } }, { id: "call_b", name: "echo", arguments: { text: "two" } }] },
			{ text: "done" },
		);
		const { session, events } = makeSession({ toolExecution: "sequential" });
		const log: string[] = [];
		session.hooks.before.add(
			async ({ toolCall }) => {
				log.push(`before:${toolCall.id}`);
				await new Promise((resolve) => setTimeout(resolve, 20));
			},
			{ stage: "extension", name: "slow-check" },
		);
		session.subscribe((event) => {
			if (event.type === "tool_execution_running") log.push(`running:${event.toolCallId}`);
		});
		await session.prompt("use the tool");
		const timeline = events.flatMap((e) => (e.type.startsWith("tool_execution") && "toolCallId" in e ? [`${e.type}:${e.toolCallId}`] : []));
		expect(timeline).toEqual([
			"tool_execution_start:call_a",
			"tool_execution_running:call_a",
			"tool_execution_end:call_a",
			"tool_execution_start:call_b",
			"tool_execution_running:call_b",
			"tool_execution_end:call_b",
		]);
		expect(log).toEqual(["before:call_a", "running:call_a", "before:call_b", "running:call_b"]);
		expect(events.find((e) => e.type === "tool_execution_running")).toEqual({ type: "tool_execution_running", toolCallId: "call_a", toolName: "echo" });
		session.dispose();
	});

	it("re-emits provider retries as retry_scheduled and retry_finished", async () => {
		server.enqueue({ status: 500, retryAfter: 0.01 }, { text: "recovered" });
		const { session, events } = makeSession({ maxRetries: 2 });
		const outcome = await session.runPrompt("hi");
		expect(outcome.status).toBe("done");
		const retry = events.filter((e) => e.type.startsWith("retry_"));
		expect(retry).toEqual([
			expect.objectContaining({ type: "retry_scheduled", attempt: 1, maxRetries: 2, delayMs: 10 }),
			{ type: "retry_finished", attempt: 1, success: true },
		]);
		expect((retry[0] as any).reason).toMatch(/500/);
		session.dispose();
	});

	it("reports a failed retry and ends the run in an error outcome", async () => {
		server.enqueue({ status: 500, retryAfter: 0.01 }, { status: 500, retryAfter: 0.01, errorMessage: "still down" });
		const { session, events } = makeSession({ maxRetries: 1 });
		const outcome = await session.runPrompt("hi");
		expect(outcome.status).toBe("error");
		expect(outcome.errorMessage).toMatch(/still down/);
		expect(events.filter((e) => e.type === "retry_finished")).toEqual([{ type: "retry_finished", attempt: 1, success: false }]);
		session.dispose();
	});

	it("without a key: opens, explains which variable to set, refuses to run and writes nothing", async () => {
		const { session, events } = makeSession({ selection: { provider: "openai", baseUrl: server.openaiBaseUrl, apiKey: undefined, modelId: undefined } });
		await session.start();
		expect(events.map((e) => e.type)).toEqual(["session_open", "session_error"]);
		// The names of the model it would use, for the footer, even though it cannot be used yet.
		expect(events[0]).toMatchObject({ provider: "openai" });
		expect((events[0] as any).model).not.toBe("unknown");
		expect((events[1] as any).message).toMatch(/OPENAI_API_KEY/);
		await expect(session.prompt("hi")).rejects.toThrow(/OPENAI_API_KEY/);
		expect(server.requests).toHaveLength(0);
		expect(session.messageCount).toBe(0);
		session.dispose();
	});

	it("delivers a steering message after the current tool batch and reports the queue", async () => {
		let release!: () => void;
		const gate = new Promise<void>((resolve) => (release = resolve));
		const slowTool: AgentTool = { ...echoTool, name: "wait", async execute() {
			await gate;
			return { content: [{ type: "text", text: "waited" }], details: {} };
		} };
		server.enqueue({ toolCalls: [{ name: "wait", arguments: { text: "x" } }] }, { text: "noted" });
		const { session, events } = makeSession({ tools: [slowTool] });
		session.subscribe((event) => {
			if (event.type === "tool_execution_start") {
				session.steer("also do this");
				release();
			}
		});
		await session.prompt("start");
		const queues = events.filter((e) => e.type === "queue_changed");
		expect(queues).toEqual([
			{ type: "queue_changed", steering: ["also do this"], followUp: [] },
			{ type: "queue_changed", steering: [], followUp: [] },
		]);
		expect(requestRoles(1)).toEqual(["system", "user", "assistant", "tool", "user"]);
		expect(server.requests[1]!.body.messages.at(-1).content).toContain("also do this");
		session.dispose();
	});

	it("aborts mid-stream: the partial answer is kept as aborted, and the file still loads", async () => {
		server.enqueue({ text: "word ", endless: true, chunkDelayMs: 5 });
		const { session } = makeSession();
		session.subscribe((event) => {
			if (event.type === "message_update") void session.abort();
		});
		const outcome = await session.runPrompt("talk forever");
		expect(outcome.status).toBe("aborted");
		const loaded = await loadSessionFile(session.sessionFile!);
		expect(loaded.warnings).toEqual([]);
		const last = loaded.entries.at(-1) as any;
		expect(last.message).toMatchObject({ role: "assistant", stopReason: "aborted" });
		session.dispose();
	});

	it("stops after --max-turns model turns", async () => {
		server.setDefaultTurn({ toolCalls: [{ name: "echo", arguments: { text: "again" } }] });
		const { session } = makeSession({ maxTurns: 2 });
		const outcome = await session.runPrompt("loop");
		expect(outcome.status).toBe("done");
		expect(server.requests).toHaveLength(2);
		session.dispose();
	});

	it("--max-turns counts the whole prompt: a queued follow-up does not start the count again", async () => {
		server.setDefaultTurn({ toolCalls: [{ name: "echo", arguments: { text: "again" } }] });
		const { session } = makeSession({ maxTurns: 2 });
		session.subscribe((event) => {
			if (event.type === "turn_start" && server.requests.length === 0) session.followUp("and more");
		});
		const outcome = await session.runPrompt("loop");
		expect(outcome.status).toBe("done");
		expect(server.requests).toHaveLength(2);
		session.dispose();
	});

	it("an abort that arrives before the run has started stops the prompt: nothing is sent", async () => {
		const { session } = makeSession();
		const running = session.runPrompt("hello");
		await session.abort();
		expect((await running).status).toBe("aborted");
		expect(server.requests).toHaveLength(0);
		session.dispose();
	});

	it("frames a prompt's run in run_start and run_end, the agent's run and every event of the prompt inside", async () => {
		server.enqueue({ toolCalls: [{ id: "call_a", name: "echo", arguments: { text: "one" } }] }, { text: "done" });
		const { session, events } = makeSession();
		await session.runPrompt("use the tool");
		const types = events.map((e) => e.type);
		expect(types.filter((t) => t === "run_start" || t === "run_end")).toEqual(["run_start", "run_end"]);
		expect(types.indexOf("run_start")).toBe(types.indexOf("agent_start") - 1);
		expect(types.at(-1)).toBe("run_end");
		expect(types.at(-2)).toBe("agent_end");
		expect(events.at(-1)).toEqual({ type: "run_end", status: "done", errorMessage: undefined });
		session.dispose();
	});

	it("says how the run ended in run_end, and emits no run events for a prompt that cannot start", async () => {
		server.enqueue({ status: 500, errorMessage: "model on fire" });
		const { session, events } = makeSession({ maxRetries: 0 });
		await session.runPrompt("hi");
		expect(events.at(-1)).toMatchObject({ type: "run_end", status: "error", errorMessage: expect.stringMatching(/model on fire/) });

		const { session: keyless, events: keylessEvents } = makeSession({ selection: { provider: "openai", baseUrl: server.openaiBaseUrl, apiKey: undefined, modelId: undefined } });
		await expect(keyless.prompt("hi")).rejects.toThrow(/OPENAI_API_KEY/);
		expect(keylessEvents.map((e) => e.type)).toEqual(["session_open", "session_error"]);
		session.dispose();
		keyless.dispose();
	});

	it("refuses a second prompt while the first waits to start, and runs the first", async () => {
		server.enqueue({ text: "first answer" });
		const { session, events } = makeSession();
		const first = session.runPrompt("first");
		await expect(session.runPrompt("second")).rejects.toThrow("A run is already active");
		expect((await first).status).toBe("done");
		expect(events.filter((e) => e.type === "run_start")).toHaveLength(1);
		expect(server.requests).toHaveLength(1);
		session.dispose();
	});

	it("aborted before it started, a prompt emits no run events", async () => {
		const { session, events } = makeSession();
		const running = session.runPrompt("hello");
		await session.abort();
		expect((await running).status).toBe("aborted");
		expect(events.some((e) => e.type === "run_start" || e.type === "run_end")).toBe(false);
		session.dispose();
	});

	it("records model and thinking changes, and announces them", async () => {
		server.enqueue({ text: "a" }, { text: "b" });
		const { session, events } = makeSession();
		await session.prompt("one");
		// A bare id no provider lists is refused; under its provider any id goes (a local server's model).
		await expect(session.setModel("other-model")).rejects.toThrow(/Unknown model "other-model"/);
		await session.setModel("openai/other-model");
		await session.setThinkingLevel("high");
		await session.prompt("two");
		expect(events).toContainEqual({ type: "model_changed", provider: "openai", model: "other-model" });
		expect(events).toContainEqual({ type: "thinking_changed", level: "high" });
		expect(server.requests[1]!.body.model).toBe("other-model");
		const changes = fileLines(session.sessionFile!).filter((l) => l.type !== "message" && l.type !== "session");
		expect(changes.map((l) => [l.type, l.modelId ?? l.thinkingLevel])).toEqual([
			["model_change", "scripted-model"],
			["thinking_change", "off"],
			["model_change", "other-model"],
			["thinking_change", "high"],
		]);
		await expect(session.setModel({ provider: "nowhere", modelId: "x" })).rejects.toThrow(/Unknown provider "nowhere"/);
		// Another provider without a key: refused with what to set, and the current model stays.
		await expect(session.setModel("anthropic/claude-x")).rejects.toThrow(/ANTHROPIC_API_KEY/);
		expect(session.modelId).toBe("other-model");
		expect(session.provider).toBe("openai");
		session.dispose();
	});

	it("starts a new session and resumes the old one by id prefix", async () => {
		server.enqueue({ text: "kept" });
		const { session, events } = makeSession();
		await session.prompt("remember me");
		const firstFile = session.sessionFile!;
		const firstId = session.sessionId;
		await session.newSession();
		expect(session.sessionId).not.toBe(firstId);
		expect(session.messageCount).toBe(0);
		expect(session.usageTotals.output).toBe(0);
		expect(events.filter((e) => e.type === "session_open")).toHaveLength(2);

		expect(session.listSessions().map((s) => s.file)).toEqual([firstFile]);
		await session.resume(firstId.slice(0, 8));
		expect(session.sessionFile).toBe(firstFile);
		expect(session.messageCount).toBe(2);
		expect(session.usageTotals.output).toBeGreaterThan(0);
		expect(events.at(-1)).toMatchObject({ type: "session_open", messageCount: 2, file: firstFile });
		session.dispose();
	});

	it("adds up usage and cost over the session", async () => {
		server.enqueue({ text: "x", usage: { input: 100, output: 20 } }, { text: "y", usage: { input: 150, output: 30 } });
		const { session } = makeSession({
			selection: { provider: "openai", modelId: "gpt-4.1", baseUrl: server.openaiBaseUrl, apiKey: "k" },
		});
		await session.prompt("one");
		await session.prompt("two");
		expect(session.usageTotals).toMatchObject({ input: 250, output: 50 });
		expect(session.contextUsage.contextWindow).toBeGreaterThan(0);
		session.dispose();
	});

	it("counts in its totals the tokens and cost of a request that failed after the provider reported them", async () => {
		// GPT-5.6 Terra speaks the Responses API, whose failed response still says what it used.
		const usageThenOverloaded = {
			rawEvents: [
				{
					type: "response.failed",
					response: { status: "failed", error: { code: "server_error", message: "Overloaded" }, usage: { input_tokens: 400, output_tokens: 0 } },
				},
			],
		};
		server.enqueue(usageThenOverloaded, usageThenOverloaded);
		const { session } = makeSession({
			selection: { provider: "openai", modelId: "gpt-5.6-terra", baseUrl: server.openaiBaseUrl, apiKey: "k" },
			streamFn: (model, context, options) => streamModel(model, context, { ...options, retryBaseDelayMs: 5 }),
			maxRetries: 1,
		});
		const outcome = await session.runPrompt("one");
		expect(outcome.status).toBe("error");
		expect(session.usageTotals.input).toBe(800);
		expect(session.usageTotals.cost).toBeCloseTo((800 * 2.5) / 1e6);
		session.dispose();
	});

	it("opens a saved session through buildContext, the seam where compaction's view plugs in", async () => {
		server.enqueue({ text: "first" }, { text: "second" });
		const { session, home } = makeSession();
		await session.prompt("old question");
		session.dispose();
		const store = await SessionStore.open(session.sessionFile!);
		// A stand-in view: only the last message of the file.
		const { session: resumed } = makeSession({ store, buildContext: (entries) => entries.flatMap((e) => (e.type === "message" ? [e.message] : [])).slice(-1) }, home);
		expect(resumed.entries.filter((e) => e.type === "message")).toHaveLength(2);
		await resumed.prompt("new question");
		// The view begins with an answer, which no request may: a placeholder question is sent before it.
		expect(requestRoles(1)).toEqual(["system", "user", "assistant", "user"]);
		expect(resumed.loadWarnings.join("\n")).toMatch(/began with an answer/);
		// The file still holds every message.
		expect(fileLines(session.sessionFile!).filter((l) => l.type === "message")).toHaveLength(4);
		resumed.dispose();
	});

	it("keeps nothing on disk with persist: false", async () => {
		server.enqueue({ text: "ephemeral" });
		const home = tempDir();
		const { session } = makeSession({ store: SessionStore.create({ home, cwd: "/project", persist: false }) }, home);
		await session.prompt("hi");
		expect(session.sessionFile).toBeUndefined();
		expect(session.messageCount).toBe(2);
		session.dispose();
	});
});
