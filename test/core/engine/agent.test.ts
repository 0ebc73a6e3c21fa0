import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import {
	Agent,
	type AgentEvent,
	type AgentTool,
	type AssistantMessage,
	createAssistantMessageEventStream,
	type StreamFn,
	type UserMessage,
} from "../../../src/core/index.js";
import { assistant, call, deferred, mockModel, scriptedStream, text } from "../support/scripted-stream.js";

const schema = Type.Object({ value: Type.String() });

function user(content: string): UserMessage {
	return { role: "user", content, timestamp: Date.now() };
}

describe("Agent state is reduced before listeners run (seed 000 §12)", () => {
	it("pendingToolCalls already holds the id in a tool_execution_start listener and not after its end", async () => {
		const tool: AgentTool<typeof schema> = {
			name: "echo",
			label: "echo",
			description: "",
			parameters: schema,
			execute: async () => ({ content: [text("ok")], details: {} }),
		};
		const scripted = scriptedStream([assistant([call("a", "echo", { value: "x" })], "toolUse")]);
		const agent = new Agent({ initialState: { model: mockModel, tools: [tool] }, streamFn: scripted.streamFn });
		const seen: string[] = [];
		agent.subscribe((event) => {
			if (event.type === "tool_execution_start") seen.push(`start:${agent.state.pendingToolCalls.has("a")}`);
			if (event.type === "tool_execution_end") seen.push(`end:${agent.state.pendingToolCalls.has("a")}`);
			if (event.type === "message_end") seen.push(`end-msg:${agent.state.messages.at(-1) === event.message}`);
			if (event.type === "message_update") seen.push(`update:${agent.state.streamingMessage !== undefined}`);
		});
		await agent.prompt("go");
		expect(seen).toContain("start:true");
		expect(seen).toContain("end:false");
		expect(seen.filter((s) => s.startsWith("end-msg"))).not.toContain("end-msg:false");
		expect(seen).toContain("update:true");
	});

	it("awaits listeners in subscription order, and prompt() resolves only after agent_end listeners settle", async () => {
		const scripted = scriptedStream([assistant([text("hello")])]);
		const agent = new Agent({ initialState: { model: mockModel }, streamFn: scripted.streamFn });
		const order: string[] = [];
		agent.subscribe(async (event) => {
			if (event.type !== "agent_end") return;
			await new Promise((resolve) => setTimeout(resolve, 30));
			order.push(`first:${agent.state.isStreaming}`);
		});
		agent.subscribe((event) => {
			if (event.type === "agent_end") order.push("second");
		});
		await agent.prompt("hi");
		order.push(`after:${agent.state.isStreaming}`);
		expect(order).toEqual(["first:true", "second", "after:false"]);
		expect(agent.state.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
	});

	it("the assistant message_end listener is a barrier before tool preparation", async () => {
		const log: string[] = [];
		const tool: AgentTool<typeof schema> = {
			name: "echo",
			label: "echo",
			description: "",
			parameters: schema,
			execute: async () => {
				log.push("execute");
				return { content: [text("ok")], details: {} };
			},
		};
		const scripted = scriptedStream([assistant([call("a", "echo", { value: "x" })], "toolUse")]);
		const agent = new Agent({ initialState: { model: mockModel, tools: [tool] }, streamFn: scripted.streamFn });
		agent.subscribe(async (event) => {
			if (event.type === "message_end" && event.message.role === "assistant" && log.length === 0) {
				await new Promise((resolve) => setTimeout(resolve, 20));
				log.push("listener done");
			}
			if (event.type === "tool_execution_start") log.push("start");
		});
		await agent.prompt("go");
		expect(log.slice(0, 3)).toEqual(["listener done", "start", "execute"]);
	});

	it("refuses a second prompt while running", async () => {
		const gate = deferred();
		const agent = new Agent({
			initialState: { model: mockModel },
			streamFn: () => {
				const stream = createAssistantMessageEventStream();
				void gate.promise.then(() => stream.push({ type: "done", reason: "stop", message: assistant([text("x")]) }));
				return stream;
			},
		});
		const running = agent.prompt("one");
		await expect(agent.prompt("two")).rejects.toThrow(/already processing.*steer\(\) or followUp\(\)/);
		gate.resolve();
		await running;
	});
});

describe("abort", () => {
	/** A provider that sends the start of an answer, and ends it as aborted only when its signal aborts. */
	function partialAnswer(): { streamFn: StreamFn; signal(): AbortSignal | undefined } {
		let providerSignal: AbortSignal | undefined;
		const streamFn: StreamFn = (_model, _context, options) => {
			providerSignal = options?.signal;
			const stream = createAssistantMessageEventStream();
			const partial: AssistantMessage = assistant([text("Partial ans")]);
			stream.push({ type: "start", partial: { ...partial, content: [] } });
			stream.push({ type: "text_start", contentIndex: 0, partial });
			stream.push({ type: "text_delta", contentIndex: 0, delta: "Partial ans", partial });
			options?.signal?.addEventListener("abort", () => {
				stream.push({ type: "error", reason: "aborted", error: { ...partial, stopReason: "aborted", errorMessage: "Request aborted" } });
			});
			return stream;
		};
		return { streamFn, signal: () => providerSignal };
	}

	it("aborts the provider's signal and keeps the partial message with stopReason aborted", async () => {
		const provider = partialAnswer();
		const agent = new Agent({ initialState: { model: mockModel }, streamFn: provider.streamFn });
		agent.subscribe((event) => {
			if (event.type === "message_update") agent.abort();
		});
		await agent.prompt("write an essay");
		expect(provider.signal()?.aborted).toBe(true);
		expect(agent.state.messages.at(-1)).toMatchObject({
			role: "assistant",
			stopReason: "aborted",
			content: [text("Partial ans")],
		});
	});

	it("ends the provider's request when the message stops being read before its end (a listener threw)", async () => {
		const provider = partialAnswer();
		const agent = new Agent({ initialState: { model: mockModel }, streamFn: provider.streamFn });
		agent.subscribe((event) => {
			if (event.type === "message_update") throw new Error("listener failed");
		});
		await agent.prompt("write an essay");
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "error" });
		expect(provider.signal()?.aborted).toBe(true);
	});

	it("settles within a second when a provider ignores the signal", async () => {
		const streamFn: StreamFn = () => {
			const stream = createAssistantMessageEventStream();
			stream.push({ type: "start", partial: assistant([]) });
			return stream; // never ends
		};
		const agent = new Agent({ initialState: { model: mockModel }, streamFn });
		setTimeout(() => agent.abort(), 20);
		const started = Date.now();
		await agent.prompt("hi");
		expect(Date.now() - started).toBeLessThan(1000);
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
	});

	it("passes the signal to tools and listeners; a tool ignoring it gets 'aborted', completed results are kept", async () => {
		const toolSignals: AbortSignal[] = [];
		const listenerSignals = new Set<AbortSignal>();
		const tool: AgentTool<typeof schema> = {
			name: "work",
			label: "work",
			description: "",
			parameters: schema,
			async execute(_id, params, signal) {
				toolSignals.push(signal!);
				if (params.value === "quick") return { content: [text("quick result")], details: {} };
				return new Promise(() => {}); // ignores the signal forever
			},
		};
		const scripted = scriptedStream([
			assistant([call("q", "work", { value: "quick" }), call("s", "work", { value: "stuck" })], "toolUse"),
		]);
		const agent = new Agent({ initialState: { model: mockModel, tools: [tool] }, streamFn: scripted.streamFn });
		const events: AgentEvent[] = [];
		agent.subscribe((event, signal) => {
			listenerSignals.add(signal);
			events.push(event);
			if (event.type === "tool_execution_end" && event.toolCallId === "q") agent.abort();
		});
		const started = Date.now();
		await agent.prompt("go");
		expect(Date.now() - started).toBeLessThan(1000);
		expect(toolSignals.every((signal) => signal.aborted)).toBe(true);
		expect([...listenerSignals].every((signal) => signal.aborted)).toBe(true);
		const results = agent.state.messages.filter((m) => m.role === "toolResult");
		expect(results).toMatchObject([
			{ toolCallId: "q", isError: false, content: [text("quick result")] },
			{ toolCallId: "s", isError: true, content: [text("Tool call aborted")] },
		]);
		// No further model call after an abort during tools.
		expect(scripted.contexts).toHaveLength(1);
		expect(events.at(-1)!.type).toBe("agent_end");
		expect(agent.state.isStreaming).toBe(false);
	});
});

describe("steering, follow-up and shouldStopAfterTurn", () => {
	function slowTool(gate: Promise<void>): AgentTool<typeof schema> {
		return {
			name: "slow",
			label: "slow",
			description: "",
			parameters: schema,
			execute: async () => {
				await gate;
				return { content: [text("slow result")], details: {} };
			},
		};
	}

	it("injects steering messages after the current batch's results, before the next model call", async () => {
		const gate = deferred();
		const scripted = scriptedStream([
			assistant([call("a", "slow", { value: "1" })], "toolUse"),
			assistant([text("adjusted")]),
		]);
		const agent = new Agent({ initialState: { model: mockModel, tools: [slowTool(gate.promise)] }, streamFn: scripted.streamFn });
		agent.subscribe((event) => {
			if (event.type === "tool_execution_start") {
				agent.steer(user("use tabs, not spaces"));
				gate.resolve();
			}
		});
		await agent.prompt("format the file");
		const second = scripted.contexts[1]!.messages.map((m) => (m.role === "user" ? `user:${m.content}` : m.role));
		expect(second).toEqual(["user:format the file", "assistant", "toolResult", "user:use tabs, not spaces"]);
		expect(agent.hasQueuedMessages()).toBe(false);
	});

	it("delivers follow-ups only when the agent would otherwise stop", async () => {
		const gate = deferred();
		const scripted = scriptedStream([
			assistant([call("a", "slow", { value: "1" })], "toolUse"),
			assistant([text("first done")]),
			assistant([text("second done")]),
		]);
		const agent = new Agent({ initialState: { model: mockModel, tools: [slowTool(gate.promise)] }, streamFn: scripted.streamFn });
		agent.subscribe((event) => {
			if (event.type === "tool_execution_start") {
				agent.followUp(user("now run the tests"));
				gate.resolve();
			}
		});
		await agent.prompt("fix it");
		// Not after the tool batch (second call has no follow-up), but after the final answer (third call).
		expect(scripted.contexts[1]!.messages.at(-1)!.role).toBe("toolResult");
		expect(scripted.contexts[2]!.messages.at(-1)).toMatchObject({ role: "user", content: "now run the tests" });
	});

	it("shouldStopAfterTurn ends the run without polling the queues", async () => {
		const gate = deferred();
		gate.resolve();
		const scripted = scriptedStream([assistant([call("a", "slow", { value: "1" })], "toolUse")]);
		const agent = new Agent({
			initialState: { model: mockModel, tools: [slowTool(gate.promise)] },
			streamFn: scripted.streamFn,
			shouldStopAfterTurn: () => true,
		});
		agent.subscribe((event) => {
			if (event.type === "tool_execution_end") agent.steer(user("later"));
		});
		await agent.prompt("go");
		expect(scripted.contexts).toHaveLength(1);
		expect(agent.hasQueuedMessages()).toBe(true);
		expect(agent.clearAllQueues().steering).toHaveLength(1);
	});

	it("continue() after an assistant message runs the queued messages", async () => {
		const scripted = scriptedStream([assistant([text("one")]), assistant([text("two")])]);
		const agent = new Agent({ initialState: { model: mockModel }, streamFn: scripted.streamFn });
		await agent.prompt("first");
		agent.followUp(user("second"));
		await agent.continue();
		expect(agent.state.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
		await expect(agent.continue()).rejects.toThrow(/assistant/);
	});
});
