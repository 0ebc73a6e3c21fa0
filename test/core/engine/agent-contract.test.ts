// Reference details of the core API: what shouldStopAfterTurn is told, copies on assigning the Agent's lists,
// and a loop callback that throws.
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import {
	Agent,
	type AgentEvent,
	type AgentLoopConfig,
	type AgentMessage,
	type AgentTool,
	type AssistantMessage,
	agentLoop,
	agentLoopContinue,
	type UserMessage,
} from "../../../src/core/index.js";
import { assistant, call, mockModel, scriptedStream, text } from "../support/scripted-stream.js";

const schema = Type.Object({ value: Type.String() });

function user(content: string): UserMessage {
	return { role: "user", content, timestamp: Date.now() };
}

function tool(name: string): AgentTool<typeof schema> {
	return {
		name,
		label: name,
		description: name,
		parameters: schema,
		async execute(_id, params) {
			return { content: [text(`${name} ${params.value}`)], details: {} };
		},
	};
}

/** "user:go", "assistant", "toolResult:a"… */
function describeMessage(message: AgentMessage): string {
	if (message.role === "user") return `user:${message.content}`;
	if (message.role === "toolResult") return `toolResult:${message.toolCallId}`;
	return message.role;
}

describe("shouldStopAfterTurn's context carries newMessages", () => {
	it("in a prompt run: the prompts and everything since, exactly what the run returns when it stops there", async () => {
		const seen: string[][] = [];
		const scripted = scriptedStream([assistant([call("a", "echo", { value: "1" })], "toolUse"), assistant([text("done")])]);
		const agent = new Agent({
			initialState: { model: mockModel, tools: [tool("echo")], messages: [user("earlier"), assistant([text("earlier answer")])] },
			streamFn: scripted.streamFn,
			shouldStopAfterTurn: ({ newMessages }) => {
				seen.push(newMessages.map(describeMessage));
				return newMessages.length >= 4;
			},
		});
		let returned: AgentMessage[] | undefined;
		agent.subscribe((event) => {
			if (event.type === "agent_end") returned = event.messages;
		});

		await agent.prompt("go");

		expect(seen).toEqual([
			["user:go", "assistant", "toolResult:a"],
			["user:go", "assistant", "toolResult:a", "assistant"],
		]);
		expect(returned!.map(describeMessage)).toEqual(seen[1]);
	});

	it("in a continuation: only what the continuation added, not the context it continued from", async () => {
		const seen: string[][] = [];
		const scripted = scriptedStream([assistant([call("b", "echo", { value: "2" })], "toolUse"), assistant([text("done")])]);
		const config: AgentLoopConfig = {
			model: mockModel,
			convertToLlm: (messages) => messages as never,
			shouldStopAfterTurn: ({ newMessages }) => {
				seen.push(newMessages.map(describeMessage));
				return false;
			},
		};
		const context = { messages: [user("first"), assistant([text("answer")]), user("again")], tools: [tool("echo")] };
		const stream = agentLoopContinue(context, config, undefined, scripted.streamFn);
		const returned = await stream.result();

		expect(seen).toEqual([["assistant", "toolResult:b"], ["assistant", "toolResult:b", "assistant"]]);
		expect(returned.map(describeMessage)).toEqual(seen[1]);
	});
});

describe("assigning agent.state.tools or agent.state.messages stores a copy", () => {
	it("the caller's later pushes and pops do not change the agent's lists, nor what the next run sends", async () => {
		const scripted = scriptedStream([assistant([text("ok")])]);
		const agent = new Agent({ initialState: { model: mockModel }, streamFn: scripted.streamFn });
		const tools = [tool("read")];
		const messages: AgentMessage[] = [user("remember this"), assistant([text("noted")])];

		agent.state.tools = tools;
		agent.state.messages = messages;
		tools.push(tool("bash"));
		messages.pop();
		messages.push(user("injected behind the agent's back"));

		expect(agent.state.tools).not.toBe(tools);
		expect(agent.state.tools.map((t) => t.name)).toEqual(["read"]);
		expect(agent.state.messages.map(describeMessage)).toEqual(["user:remember this", "assistant"]);

		await agent.prompt("go on");
		expect(scripted.contexts[0]!.tools!.map((t) => t.name)).toEqual(["read"]);
		expect(scripted.contexts[0]!.messages.map(describeMessage)).toEqual(["user:remember this", "assistant", "user:go on"]);
		// The caller's array stays the caller's: the run appended to the agent's own list only.
		expect(messages).toHaveLength(2);
		expect(agent.state.messages).toHaveLength(4);
	});

	it("the lists given to the constructor and to setTools/replaceMessages are copied too", () => {
		const tools = [tool("read")];
		const messages: AgentMessage[] = [user("a")];
		const agent = new Agent({ initialState: { tools, messages } });
		tools.length = 0;
		messages.length = 0;
		expect(agent.state.tools).toHaveLength(1);
		expect(agent.state.messages).toHaveLength(1);

		const next = [tool("bash"), tool("edit")];
		agent.setTools(next);
		next.pop();
		expect(agent.state.tools.map((t) => t.name)).toEqual(["bash", "edit"]);
	});
});

describe("a loop callback that throws ends the run with an error assistant message and agent_end", () => {
	type Breakable = "transformContext" | "convertToLlm" | "getApiKey" | "getSteeringMessages" | "getFollowUpMessages" | "shouldStopAfterTurn";
	const cases: { callback: Breakable; error: RegExp }[] = [
		{ callback: "transformContext", error: /^context view unavailable$/ },
		{ callback: "convertToLlm", error: /^context view unavailable$/ },
		{ callback: "getApiKey", error: /^context view unavailable$/ },
		{ callback: "getSteeringMessages", error: /^getSteeringMessages failed: context view unavailable$/ },
		{ callback: "getFollowUpMessages", error: /^getFollowUpMessages failed: context view unavailable$/ },
		{ callback: "shouldStopAfterTurn", error: /^shouldStopAfterTurn failed: context view unavailable$/ },
	];

	function breaking(callback: Breakable): Partial<AgentLoopConfig> {
		const fail = () => {
			throw new Error("context view unavailable");
		};
		return { [callback]: fail };
	}

	/** Every started message ends, every started turn ends, and agent_end comes once, last. */
	function expectWellFormed(events: AgentEvent[]): void {
		const types = events.map((event) => event.type);
		expect(types[0]).toBe("agent_start");
		expect(types.at(-1)).toBe("agent_end");
		expect(types.filter((type) => type === "agent_end")).toHaveLength(1);
		expect(types.filter((type) => type === "turn_start")).toHaveLength(types.filter((type) => type === "turn_end").length);
		expect(types.filter((type) => type === "message_start")).toHaveLength(types.filter((type) => type === "message_end").length);
	}

	for (const { callback, error } of cases) {
		it(`${callback}: agentLoop's stream ends, its last message says what failed`, async () => {
			const scripted = scriptedStream([assistant([call("a", "echo", { value: "1" })], "toolUse"), assistant([text("done")])]);
			const config: AgentLoopConfig = { model: mockModel, convertToLlm: (messages) => messages as never, ...breaking(callback) };
			const stream = agentLoop([user("go")], { messages: [], tools: [tool("echo")] }, config, undefined, scripted.streamFn);
			const events: AgentEvent[] = [];
			for await (const event of stream) events.push(event);
			const returned = await stream.result();

			expectWellFormed(events);
			const last = returned.at(-1) as AssistantMessage;
			expect(last).toMatchObject({ role: "assistant", stopReason: "error", provider: mockModel.provider, model: mockModel.id });
			expect(last.errorMessage).toMatch(error);
			expect(returned[0]).toMatchObject({ role: "user", content: "go" });
			const turnEnd = events.findLast((event) => event.type === "turn_end");
			expect(turnEnd).toMatchObject({ message: last, toolResults: [] });
		});
	}

	it("through the Agent: prompt() resolves, the error is in state and reaches listeners once, and the next prompt runs", async () => {
		const scripted = scriptedStream([assistant([text("first")]), assistant([text("second")])]);
		let calls = 0;
		const agent = new Agent({
			initialState: { model: mockModel },
			streamFn: scripted.streamFn,
			shouldStopAfterTurn: () => {
				if (++calls === 1) throw new Error("stop check broke");
				return false;
			},
		});
		const events: AgentEvent[] = [];
		agent.subscribe((event) => {
			events.push(event);
		});

		await agent.prompt("go");
		expectWellFormed(events);
		expect(agent.state.isStreaming).toBe(false);
		expect(agent.state.errorMessage).toBe("shouldStopAfterTurn failed: stop check broke");
		expect(agent.state.messages.map(describeMessage)).toEqual(["user:go", "assistant", "assistant"]);

		await agent.prompt("again");
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop", content: [text("second")] });
	});
});
