// The session's one state per tool call: what it says at each event, its timings, and that the agent's own
// events stay exactly as they were.
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import type { AgentEvent, ToolDefinition } from "../../../src/core/index.js";
import { loadModelRegistry } from "../../../src/core/ai/index.js";
import { AgentSession, type SessionEvent, SessionStore, type ToolCallState, toolCallTimes } from "../../../src/core/session/index.js";
import { assistant, call, deferred, scriptedStream, text, type Turn } from "../support/scripted-stream.js";
import { tempDir } from "../../support/temp-dir.js";

/** A shell-like tool that runs nothing; `started` records when each execute() began, `gate` holds it open. */
function shellTool(started: Map<string, number>, gate?: Promise<void>): ToolDefinition {
	return {
		name: "shell",
		label: "Shell",
		description: "Runs a command.",
		parameters: Type.Object({ command: Type.String() }),
		summarizeArgs: (args) => `$ ${(args as { command?: string }).command}`,
		shellCommand: (args) => (args as { command: string }).command,
		fileEffects: (args) => ({ reads: [], changes: [(args as { command: string }).command.split(" ").at(-1)!] }),
		async execute(id, params: { command: string }, _signal, onUpdate) {
			started.set(id, Date.now());
			onUpdate?.({ content: [text(`running ${params.command}`)], details: { step: 1 } });
			await gate;
			return { content: [text(`ran ${params.command}`)], details: { code: 0 } };
		},
	};
}

function setUp(turns: Turn[], tools: ToolDefinition[], toolExecution: "parallel" | "sequential" = "parallel") {
	const root = tempDir("loom-calls-");
	const home = join(root, "home");
	const stream = scriptedStream(turns);
	const session = new AgentSession({
		cwd: root,
		home,
		store: SessionStore.create({ home, cwd: root, persist: false }),
		createStore: () => SessionStore.create({ home, cwd: root, persist: false }),
		models: loadModelRegistry(home, {}),
		selection: { provider: "openai", modelId: "scripted-model", baseUrl: "http://127.0.0.1:1", apiKey: "test-key" },
		streamFn: stream.streamFn,
		systemPrompt: "You are a test.",
		tools,
		toolExecution,
	});
	const events: SessionEvent[] = [];
	const agentEvents: AgentEvent[] = [];
	session.agent.subscribe((event) => {
		agentEvents.push(event);
	});
	session.subscribe((event) => {
		events.push(event);
	});
	/** Each call's statuses in the order its tool_call_changed events came. */
	const statuses = (id: string) => events.flatMap((event) => (event.type === "tool_call_changed" && event.call.id === id ? [event.call.status] : []));
	return { session, events, agentEvents, statuses };
}

const twoCalls = assistant([call("a", "shell", { command: "make a.txt" }), call("b", "shell", { command: "make b.txt" })], "toolUse");

describe("the session's tool-call state", () => {
	it("takes each call from queued through preparing and running to done, with the definition's description", async () => {
		const started = new Map<string, number>();
		const { session, statuses } = setUp([twoCalls, assistant([text("done")])], [shellTool(started)]);
		await session.runPrompt("go");
		expect(statuses("a")).toEqual(["queued", "preparing", "running", "running", "done"]);
		expect(statuses("b")).toEqual(["queued", "preparing", "running", "running", "done"]);
		const a = session.toolCalls.get("a")!;
		expect(a).toMatchObject({
			name: "shell",
			args: { command: "make a.txt" },
			status: "done",
			description: { summary: "$ make a.txt", files: { reads: [], changes: ["a.txt"] }, shellCommand: "make a.txt" },
			partialResult: { content: [text("running make a.txt")], details: { step: 1 } },
			result: { content: [text("ran make a.txt")], details: { code: 0 } },
			approvalWaitMs: 0,
		});
		expect(a.queuedAt).toBeLessThanOrEqual(a.preparingAt!);
		expect(a.preparingAt).toBeLessThanOrEqual(a.startedAt!);
		expect(a.startedAt).toBeLessThanOrEqual(started.get("a")!);
		expect(a.endedAt).toBeGreaterThanOrEqual(a.startedAt!);
		expect([...session.toolCalls.keys()]).toEqual(["a", "b"]);
		session.dispose();
	});

	it("queues every call of the message before the first one starts, and is up to date when each event is heard", async () => {
		const { session, events } = setUp([twoCalls, assistant([text("done")])], [shellTool(new Map())]);
		const seen: string[] = [];
		session.subscribe((event) => {
			if (event.type === "tool_execution_start" || event.type === "tool_execution_running" || event.type === "tool_execution_end") {
				seen.push(`${event.type}:${event.toolCallId}:${session.toolCalls.get(event.toolCallId)?.status}`);
			}
		});
		await session.runPrompt("go");
		const labels = events.map((event) => (event.type === "tool_call_changed" ? `${event.call.status}:${event.call.id}` : event.type));
		const firstStart = labels.indexOf("tool_execution_start");
		expect(labels.slice(labels.indexOf("queued:a"), firstStart)).toEqual(["queued:a", "queued:b", "message_end", "preparing:a"]);
		// Each change comes just before the event that made it.
		expect(labels[labels.indexOf("done:a") + 1]).toBe("tool_execution_end");
		expect(seen.filter((line) => line.includes(":a:"))).toEqual(["tool_execution_start:a:preparing", "tool_execution_running:a:running", "tool_execution_end:a:done"]);
		session.dispose();
	});

	it("leaves the agent's events exactly as the agent emitted them: the states are added, nothing moves", async () => {
		const { session, events, agentEvents } = setUp([twoCalls, assistant([text("done")])], [shellTool(new Map())]);
		await session.runPrompt("go");
		const agentTypes = new Set(agentEvents.map((event) => event.type));
		const heard = events.filter((event) => agentTypes.has(event.type as AgentEvent["type"]));
		expect(heard).toEqual(agentEvents);
		expect(heard.every((event, index) => event === agentEvents[index])).toBe(true);
		session.dispose();
	});

	it("times a call from its execute(): a wait for approval counts apart, never in its running time", async () => {
		const started = new Map<string, number>();
		const released = deferred();
		const { session } = setUp([assistant([call("c1", "shell", { command: "make x" })], "toolUse"), assistant([text("done")])], [shellTool(started)]);
		let answeredAt = 0;
		let askedAt = 0;
		session.hooks.before.add(
			async ({ toolCall }) => {
				await session.reportApproval({ type: "tool_approval_requested", toolCallId: toolCall.id, toolName: toolCall.name });
				askedAt = Date.now();
				await released.promise;
				answeredAt = Date.now();
				await session.reportApproval({ type: "tool_approval_resolved", toolCallId: toolCall.id, toolName: toolCall.name, outcome: "allowed" });
				return undefined;
			},
			{ stage: "policy", name: "ask" },
		);
		const run = session.runPrompt("go");
		await expect.poll(() => session.toolCalls.get("c1")?.status, { timeout: 10_000 }).toBe("awaiting_approval");
		const waiting = session.toolCalls.get("c1")!;
		expect(waiting.approvalRequestedAt).toBeGreaterThan(0);
		// The user takes a while to answer (N ms).
		await expect.poll(() => Date.now() - askedAt, { timeout: 10_000 }).toBeGreaterThanOrEqual(40);
		expect(toolCallTimes(session.toolCalls.get("c1")!, Date.now()).approvalWaitMs).toBeGreaterThanOrEqual(40);
		released.resolve();
		await run;
		const done = session.toolCalls.get("c1")! as ToolCallState;
		const times = toolCallTimes(done, Date.now());
		expect(done.status).toBe("done");
		expect(done.approvalRequestedAt).toBeUndefined();
		expect(done.approvalWaitMs).toBeGreaterThanOrEqual(40);
		// It started running after the answer, when its execute() began; its time is the execution's only.
		expect(done.startedAt).toBeGreaterThanOrEqual(answeredAt);
		expect(done.startedAt).toBeLessThanOrEqual(started.get("c1")!);
		expect(times.runningMs).toBe(done.endedAt! - done.startedAt!);
		expect(done.startedAt! - done.preparingAt!).toBeGreaterThanOrEqual(done.approvalWaitMs);
		session.dispose();
	});

	it("says blocked for a call the before-chain refused, error for one that failed, and never started either", async () => {
		const failing: ToolDefinition = {
			name: "fail",
			label: "Fail",
			description: "Fails.",
			parameters: Type.Object({}),
			async execute() {
				throw new Error("it broke");
			},
		};
		const turn = assistant([call("x", "shell", { command: "rm -rf build" }), call("y", "fail", {}), call("z", "missing", {})], "toolUse");
		const { session, statuses } = setUp([turn, assistant([text("done")])], [shellTool(new Map()), failing]);
		session.hooks.before.add(({ toolCall }) => (toolCall.name === "shell" ? { block: true, reason: "not here" } : undefined), { stage: "policy", name: "no-shell" });
		await session.runPrompt("go");
		expect(statuses("x")).toEqual(["queued", "preparing", "blocked"]);
		expect(session.toolCalls.get("x")).toMatchObject({ status: "blocked", result: { content: [text("not here")] } });
		expect(session.toolCalls.get("x")!.startedAt).toBeUndefined();
		expect(statuses("y")).toEqual(["queued", "preparing", "running", "error"]);
		expect(statuses("z")).toEqual(["queued", "preparing", "error"]);
		expect(session.toolCalls.get("z")!.description.summary).toBe("{}");
		session.dispose();
	});

	it("holds the latest batch: the next turn forgets the calls that ended", async () => {
		const { session } = setUp(
			[assistant([call("one", "shell", { command: "make 1" })], "toolUse"), assistant([call("two", "shell", { command: "make 2" })], "toolUse"), assistant([text("done")])],
			[shellTool(new Map())],
		);
		await session.runPrompt("go");
		expect([...session.toolCalls.keys()]).toEqual(["two"]);
		session.dispose();
	});

	it("closes a call the run left open (aborted while it ran) as an error, not as still running", async () => {
		const gate = deferred();
		const { session } = setUp([assistant([call("slow", "shell", { command: "sleep" })], "toolUse"), assistant([text("done")])], [shellTool(new Map(), gate.promise)]);
		const run = session.runPrompt("go");
		await expect.poll(() => session.toolCalls.get("slow")?.status, { timeout: 10_000 }).toBe("running");
		await session.abort();
		await run;
		const slow = session.toolCalls.get("slow")!;
		expect(slow.status).toBe("error");
		expect(slow.endedAt).toBeGreaterThanOrEqual(slow.startedAt!);
		gate.resolve();
		session.dispose();
	});
});
