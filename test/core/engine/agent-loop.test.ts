import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import {
	Agent,
	type AgentEvent,
	type AgentOptions,
	type AgentTool,
	agentLoopContinue,
	type ToolResultMessage,
	validateToolArguments,
} from "../../../src/core/index.js";
import { assistant, call, deferred, mockModel, scriptedStream, type Turn, text } from "../support/scripted-stream.js";

const valueSchema = Type.Object({ value: Type.String() });

function echoTool(name = "echo", log: string[] = []): AgentTool<typeof valueSchema> {
	return {
		name,
		label: name,
		description: "echo",
		parameters: valueSchema,
		async execute(_id, params) {
			log.push(`execute:${params.value}`);
			return { content: [text(`echoed ${params.value}`)], details: { value: params.value } };
		},
	};
}

async function run(turns: Turn[], tools: AgentTool<any>[], options: Partial<AgentOptions> = {}) {
	const scripted = scriptedStream(turns);
	const agent = new Agent({
		initialState: { model: mockModel, tools },
		streamFn: scripted.streamFn,
		...options,
	});
	const events: AgentEvent[] = [];
	agent.subscribe((event) => {
		events.push(event);
	});
	await agent.prompt("go");
	return { agent, events, contexts: scripted.contexts };
}

function label(event: AgentEvent): string {
	if (event.type.startsWith("tool_execution")) return `${event.type}:${(event as { toolCallId: string }).toolCallId}`;
	if (event.type === "message_start" || event.type === "message_end") {
		const message = event.message;
		return `${event.type}:${message.role === "toolResult" ? message.toolCallId : message.role}`;
	}
	return event.type;
}

function toolResults(events: AgentEvent[]): ToolResultMessage[] {
	return events.flatMap((event) =>
		event.type === "message_end" && event.message.role === "toolResult" ? [event.message] : [],
	);
}

describe("event order (seed 000 §3)", () => {
	it("ends the assistant message before tool preparation, tool ends before results, turn_end after results, agent_end last", async () => {
		const { events } = await run(
			[assistant([text("two calls"), call("a", "echo", { value: "1" }), call("b", "echo", { value: "2" })], "toolUse")],
			[echoTool()],
		);
		const labels = events.map(label);
		const assistantEnd = labels.indexOf("message_end:assistant");
		expect(assistantEnd).toBeLessThan(labels.indexOf("tool_execution_start:a"));
		for (const id of ["a", "b"]) {
			expect(labels.indexOf(`tool_execution_end:${id}`)).toBeLessThan(labels.indexOf(`message_start:${id}`));
		}
		const firstTurnEnd = labels.indexOf("turn_end");
		expect(firstTurnEnd).toBeGreaterThan(labels.indexOf("message_end:b"));
		expect(labels.at(-1)).toBe("agent_end");
		expect(labels.filter((l) => l === "agent_end")).toHaveLength(1);
		expect(labels.slice(0, 4)).toEqual(["agent_start", "turn_start", "message_start:user", "message_end:user"]);
	});

	it("runs every preflight (start, validation, beforeToolCall) in source order before any call executes", async () => {
		const log: string[] = [];
		const tool: AgentTool<typeof valueSchema> = {
			...echoTool(),
			async execute(_id, params) {
				log.push(`execute:${params.value}`);
				await new Promise((resolve) => setTimeout(resolve, 5));
				return { content: [text("ok")], details: {} };
			},
		};
		const { events } = await run(
			[assistant([call("a", "echo", { value: "1" }), call("b", "echo", { value: "2" }), call("c", "echo", { value: "3" })], "toolUse")],
			[tool],
			{
				beforeToolCall: async ({ toolCall }) => {
					log.push(`before:${toolCall.id}`);
				},
			},
		);
		expect(log).toEqual(["before:a", "before:b", "before:c", "execute:1", "execute:2", "execute:3"]);
		const starts = events.filter((e) => e.type === "tool_execution_start").map(label);
		expect(starts).toEqual(["tool_execution_start:a", "tool_execution_start:b", "tool_execution_start:c"]);
	});
});

describe("immediate outcomes skip execute and afterToolCall", () => {
	const cases: { name: string; calls: ReturnType<typeof call>[]; options?: Partial<AgentOptions>; expected: RegExp }[] = [
		{ name: "unknown tool", calls: [call("x", "nope", {})], expected: /Tool "nope" not found\. Available tools: echo/ },
		{
			name: "validation failure",
			calls: [call("x", "echo", { value: { nested: 1 } })],
			expected: /Validation failed for tool "echo"/,
		},
		{
			name: "arguments that were not one complete JSON object",
			calls: [{ ...call("x", "echo", { value: "cut" }), argumentsError: "not complete, valid JSON: Unterminated string" }],
			expected: /^Tool call "echo" was not executed: its arguments were malformed \(not complete, valid JSON: Unterminated string\)\. Re-issue/,
		},
		{
			name: "a call without a name",
			calls: [call("x", "", { value: "1" })],
			expected: /^A tool call without a name was not executed/,
		},
		{
			name: "blocked by beforeToolCall",
			calls: [call("x", "echo", { value: "rm -rf /" })],
			options: { beforeToolCall: () => ({ block: true, reason: "Refusing rm -rf; delete exact paths instead" }) },
			expected: /^Refusing rm -rf; delete exact paths instead$/,
		},
	];
	for (const testCase of cases) {
		it(`${testCase.name}: error end event, error result message, and the model sees the error`, async () => {
			const log: string[] = [];
			let afterCalls = 0;
			// A tool with an empty name too: a nameless call must not reach it.
			const tools = [echoTool("echo", log), echoTool("", log)];
			const { events, contexts } = await run([assistant(testCase.calls, "toolUse")], tools, {
				afterToolCall: () => {
					afterCalls++;
					return undefined;
				},
				...testCase.options,
			});
			expect(log).toEqual([]);
			expect(afterCalls).toBe(0);
			const end = events.find((e) => e.type === "tool_execution_end");
			expect(end && end.type === "tool_execution_end" && end.isError).toBe(true);
			const [result] = toolResults(events);
			expect(result!.isError).toBe(true);
			expect((result!.content[0] as { text: string }).text).toMatch(testCase.expected);
			// The loop went on: the second model request carries the error result.
			expect(contexts).toHaveLength(2);
			expect(contexts[1]!.messages.at(-1)).toMatchObject({ role: "toolResult", isError: true });
		});
	}

	it("validation names each failing path and the received arguments", () => {
		const tool = echoTool();
		expect(() => validateToolArguments(tool, { arguments: { value: 1, other: [] } as any })).not.toThrow(); // 1 → "1"
		try {
			validateToolArguments(tool, { arguments: { nothing: true } });
			expect.unreachable();
		} catch (error) {
			const message = (error as Error).message;
			expect(message).toContain('tool "echo"');
			expect(message).toContain("/value");
			expect(message).toContain('"nothing": true');
		}
	});

	it("a prepareArguments failure is an immediate error too", async () => {
		const log: string[] = [];
		const tool = { ...echoTool("echo", log), prepareArguments: () => { throw new Error("edits must be an array"); } };
		const { events } = await run([assistant([call("x", "echo", { value: "1" })], "toolUse")], [tool]);
		expect(log).toEqual([]);
		expect((toolResults(events)[0]!.content[0] as { text: string }).text).toBe("edits must be an array");
	});

	it("prepareArguments output is what gets validated and executed", async () => {
		const log: string[] = [];
		const tool = { ...echoTool("echo", log), prepareArguments: (args: any) => ({ value: String(args.legacy) }) };
		await run([assistant([call("x", "echo", { legacy: "flat" })], "toolUse")], [tool]);
		expect(log).toEqual(["execute:flat"]);
	});

	it("a call aborted during preflight never executes", async () => {
		const log: string[] = [];
		const scripted = scriptedStream([
			assistant([call("a", "echo", { value: "1" }), call("b", "echo", { value: "2" })], "toolUse"),
		]);
		const agent = new Agent({ initialState: { model: mockModel, tools: [echoTool("echo", log)] }, streamFn: scripted.streamFn });
		agent.beforeToolCall = ({ toolCall }) => {
			if (toolCall.id === "a") agent.abort();
			return undefined;
		};
		const events: AgentEvent[] = [];
		agent.subscribe((event) => {
			events.push(event);
		});
		await agent.prompt("go");
		expect(log).toEqual([]);
		const results = toolResults(events);
		expect(results.map((r) => [r.toolCallId, r.isError])).toEqual([
			["a", true],
			["b", true],
		]);
		expect((results[1]!.content[0] as { text: string }).text).toMatch(/aborted/);
		expect(events.at(-1)!.type).toBe("agent_end");
	});
});

describe("onUpdate", () => {
	it("delivers emitted updates before the call's end and ignores late updates, even while a sibling runs", async () => {
		let lateUpdate: ((partial: any) => void) | undefined;
		const siblingGate = deferred();
		const tool: AgentTool<typeof valueSchema> = {
			...echoTool(),
			async execute(_id, params, _signal, onUpdate) {
				if (params.value === "fast") {
					onUpdate?.({ content: [text("half")], details: { step: 1 } });
					onUpdate?.({ content: [text("almost")], details: { step: 2 } });
					lateUpdate = onUpdate;
					return { content: [text("fast done")], details: {} };
				}
				await siblingGate.promise;
				return { content: [text("slow done")], details: {} };
			},
		};
		const events: AgentEvent[] = [];
		const scripted = scriptedStream([
			assistant([call("fast", "echo", { value: "fast" }), call("slow", "echo", { value: "slow" })], "toolUse"),
		]);
		const agent = new Agent({ initialState: { model: mockModel, tools: [tool] }, streamFn: scripted.streamFn });
		agent.subscribe(async (event) => {
			events.push(event);
			if (event.type === "tool_execution_end" && event.toolCallId === "fast") {
				lateUpdate?.({ content: [text("late")], details: {} });
				siblingGate.resolve();
			}
		});
		await agent.prompt("go");
		const fastEvents = events.filter((e) => "toolCallId" in e && e.toolCallId === "fast").map((e) => e.type);
		expect(fastEvents).toEqual(["tool_execution_start", "tool_execution_update", "tool_execution_update", "tool_execution_end"]);
		const updates = events.flatMap((e) => (e.type === "tool_execution_update" ? [e.partialResult.details] : []));
		expect(updates).toEqual([{ step: 1 }, { step: 2 }]);
	});
});

describe("afterToolCall", () => {
	it("replaces content, details, isError field by field without deep merge", async () => {
		const { events } = await run([assistant([call("a", "echo", { value: "1" })], "toolUse")], [echoTool()], {
			afterToolCall: () => ({ details: { replaced: true }, isError: true }),
		});
		const end = events.find((e) => e.type === "tool_execution_end")!;
		expect(end).toMatchObject({ isError: true, result: { content: [text("echoed 1")], details: { replaced: true } } });
		expect(toolResults(events)[0]).toMatchObject({ isError: true, details: { replaced: true } });
		expect(toolResults(events)[0]!.details).not.toHaveProperty("value");
	});

	it("turns the result into an error when it throws", async () => {
		const { events } = await run([assistant([call("a", "echo", { value: "1" })], "toolUse")], [echoTool()], {
			afterToolCall: () => {
				throw new Error("audit log unavailable");
			},
		});
		expect(toolResults(events)[0]).toMatchObject({ isError: true, content: [text("audit log unavailable")] });
	});
});

describe("terminate", () => {
	const terminating = (name: string, terminate: boolean): AgentTool<typeof valueSchema> => ({
		...echoTool(name),
		async execute() {
			return { content: [text(name)], details: {}, terminate };
		},
	});

	it("stops after the batch when every result has it, and is never written to the transcript", async () => {
		const { events, contexts } = await run(
			[assistant([call("a", "t1", { value: "1" }), call("b", "t2", { value: "2" })], "toolUse")],
			[terminating("t1", true), terminating("t2", true)],
		);
		expect(contexts).toHaveLength(1);
		for (const message of toolResults(events)) expect(message).not.toHaveProperty("terminate");
		expect(events.at(-1)!.type).toBe("agent_end");
	});

	it("does not stop when one result lacks it", async () => {
		const { contexts } = await run(
			[assistant([call("a", "t1", { value: "1" }), call("b", "t2", { value: "2" })], "toolUse")],
			[terminating("t1", true), terminating("t2", false)],
		);
		expect(contexts).toHaveLength(2);
	});

	it("can come from a blocking beforeToolCall", async () => {
		const { contexts } = await run([assistant([call("a", "echo", { value: "1" })], "toolUse")], [echoTool()], {
			beforeToolCall: () => ({ block: true, reason: "stop here", terminate: true }),
		});
		expect(contexts).toHaveLength(1);
	});
});

describe("stopReason length with tool calls", () => {
	it("does not execute possibly cut-off calls and asks the model to re-issue them", async () => {
		const log: string[] = [];
		const { events, contexts } = await run(
			[assistant([call("a", "echo", { value: "trunc" })], "length")],
			[echoTool("echo", log)],
		);
		expect(log).toEqual([]);
		const [result] = toolResults(events);
		expect(result!.isError).toBe(true);
		expect((result!.content[0] as { text: string }).text).toMatch(/output token limit.*Re-issue/s);
		expect(contexts).toHaveLength(2);
	});
});

describe("a failing model stream", () => {
	it("error: message_end, turn_end without results, agent_end; its tool calls never run", async () => {
		const log: string[] = [];
		const failed = { ...assistant([call("a", "echo", { value: "1" })], "error"), errorMessage: "boom" };
		const { events, agent } = await run([failed], [echoTool("echo", log)]);
		expect(events.slice(-3).map((e) => e.type)).toEqual(["message_end", "turn_end", "agent_end"]);
		const turnEnd = events.find((e) => e.type === "turn_end")!;
		expect(turnEnd.type === "turn_end" && turnEnd.toolResults).toEqual([]);
		expect(log).toEqual([]);
		expect(agent.state.errorMessage).toBe("boom");
	});

	it("a StreamFn that throws still yields a full lifecycle with stopReason error", async () => {
		const agent = new Agent({
			initialState: { model: mockModel },
			streamFn: () => {
				throw new Error("socket hang up");
			},
		});
		const events: AgentEvent[] = [];
		agent.subscribe((event) => {
			events.push(event);
		});
		await agent.prompt("hi");
		expect(events.map((e) => e.type)).toEqual([
			"agent_start",
			"turn_start",
			"message_start",
			"message_end",
			"message_start",
			"message_end",
			"turn_end",
			"agent_end",
		]);
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: "socket hang up" });
	});
});

describe("agentLoopContinue", () => {
	const config = { model: mockModel, convertToLlm: (m: any) => m };
	it("throws synchronously on an empty context", () => {
		expect(() => agentLoopContinue({ messages: [] }, config)).toThrow("Cannot continue: no messages in context");
	});
	it("refuses to continue from an assistant message", () => {
		expect(() => agentLoopContinue({ messages: [assistant([text("hi")])] }, config)).toThrow(/assistant/);
	});
	it("continues from a user message", async () => {
		const scripted = scriptedStream([assistant([text("answer")])]);
		const stream = agentLoopContinue(
			{ messages: [{ role: "user", content: "q", timestamp: 1 }] },
			config,
			undefined,
			scripted.streamFn,
		);
		const types: string[] = [];
		for await (const event of stream) types.push(event.type);
		expect(types[0]).toBe("agent_start");
		expect(types.at(-1)).toBe("agent_end");
		expect((await stream.result()).map((m) => m.role)).toEqual(["assistant"]);
	});
});

describe("a tool that throws", () => {
	it("becomes an error result with the error's message, keeping details the error carries", async () => {
		class CommandError extends Error {
			details = { exitCode: 2 };
		}
		const failing: AgentTool<typeof valueSchema> = {
			...echoTool("fails"),
			async execute() {
				throw new CommandError("Command failed with exit code 2.");
			},
		};
		const { events } = await run([assistant([call("a", "fails", { value: "x" })], "toolUse")], [failing]);
		expect(toolResults(events)[0]).toMatchObject({
			isError: true,
			content: [text("Command failed with exit code 2.")],
			details: { exitCode: 2 },
		});
	});
});
