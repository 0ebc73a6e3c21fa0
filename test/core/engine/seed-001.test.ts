// The two tests of seed 001, verbatim except for their import lines.
import { describe, expect, it } from "vitest";
import { agentLoop } from "../../../src/core/index.js";
import { createAssistantMessageEventStream } from "../../../src/core/index.js";
import { Type } from "@sinclair/typebox";
import type { AgentContext, AgentEvent, AgentLoopConfig, AgentMessage, AgentTool } from "../../../src/core/index.js";

const echoSchema = Type.Object({ value: Type.String() });

/** 让第一个调用等第二个完成，制造出确定的"完成顺序 ≠ 源顺序"。 */
function createEchoTool() {
	let releaseFirst: (() => void) | undefined;
	const firstDone = new Promise<void>((resolve) => {
		releaseFirst = resolve;
	});
	let firstResolved = false;
	let parallelObserved = false;

	const tool: AgentTool<typeof echoSchema> = {
		name: "echo",
		label: "Echo",
		description: "回显工具",
		parameters: echoSchema,
		async execute(_toolCallId, params) {
			if (params.value === "first") {
				await firstDone;
				firstResolved = true;
			}
			// 第二个调用在第一个还没完成时就跑完了 —— 这就是并发的证据
			if (params.value === "second" && !firstResolved) {
				parallelObserved = true;
			}
			return {
				content: [{ type: "text", text: `echoed: ${params.value}` }],
				details: { value: params.value },
			};
		},
	};

	return { tool, release: () => releaseFirst?.(), wasParallel: () => parallelObserved };
}

describe("工具并发与结果顺序", () => {
	it("完成顺序按完成时刻，持久化消息按源顺序", async () => {
		const { tool, release, wasParallel } = createEchoTool();

		const context: AgentContext = { messages: [], tools: [tool] };

		const config: AgentLoopConfig = {
			model: {
				id: "mock", name: "mock", api: "openai-responses", provider: "openai",
				baseUrl: "https://example.invalid", reasoning: false, input: ["text"],
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
				contextWindow: 8192, maxTokens: 2048,
			},
			convertToLlm: (messages) => messages as never,
			toolExecution: "parallel",
		};

		const userMessage: AgentMessage = { role: "user", content: "跑两个", timestamp: Date.now() };

		let callIndex = 0;
		const stream = agentLoop([userMessage], context, config, undefined, () => {
			const mock = createAssistantMessageEventStream();
			queueMicrotask(() => {
				if (callIndex === 0) {
					mock.push({
						type: "done",
						reason: "toolUse",
						message: {
							role: "assistant",
							content: [
								{ type: "toolCall", id: "tool-1", name: "echo", arguments: { value: "first" } },
								{ type: "toolCall", id: "tool-2", name: "echo", arguments: { value: "second" } },
							],
							api: "openai-responses", provider: "openai", model: "mock",
							usage: {
								input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0,
								cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
							},
							stopReason: "toolUse",
							timestamp: Date.now(),
						},
					});
					// 20ms 后放行第一个调用，制造确定的完成顺序
					setTimeout(() => release(), 20);
				} else {
					mock.push({
						type: "done",
						reason: "stop",
						message: {
							role: "assistant", content: [{ type: "text", text: "done" }],
							api: "openai-responses", provider: "openai", model: "mock",
							usage: {
								input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0,
								cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
							},
							stopReason: "stop",
							timestamp: Date.now(),
						},
					});
				}
				callIndex++;
			});
			return mock;
		});

		const events: AgentEvent[] = [];
		for await (const event of stream) {
			events.push(event);
		}

		// 1) 并发确实发生了：第二个调用在第一个完成前就跑完了
		expect(wasParallel()).toBe(true);

		// 2) tool_execution_end 按完成顺序
		const endIds = events.flatMap((e) =>
			e.type === "tool_execution_end" ? [e.toolCallId] : [],
		);
		expect(endIds).toEqual(["tool-2", "tool-1"]);

		// 3) 持久化的 toolResult 消息按源顺序
		const resultIds = events.flatMap((e) =>
			e.type === "message_end" && e.message.role === "toolResult" ? [e.message.toolCallId] : [],
		);
		expect(resultIds).toEqual(["tool-1", "tool-2"]);

		// 4) turn_end.toolResults 同样是源顺序
		const turnIds = events.flatMap((e) =>
			e.type === "turn_end" ? e.toolResults.map((r) => r.toolCallId) : [],
		);
		expect(turnIds).toEqual(["tool-1", "tool-2"]);
	});

	it("批里有一个 sequential 工具，整批退回串行", async () => {
		// started 记录每个工具的启动顺序，用来判断有没有真正重叠
		const started: string[] = [];
		let releaseFirst: (() => void) | undefined;
		const firstDone = new Promise<void>((resolve) => {
			releaseFirst = resolve;
		});

		// 声明了 executionMode: "sequential" 的那个工具就是让整批降级的元凶
		const slow: AgentTool<typeof echoSchema> = {
			name: "slow",
			label: "Slow",
			description: "慢工具",
			parameters: echoSchema,
			executionMode: "sequential",
			async execute(_toolCallId, params) {
				started.push(`slow:${params.value}`);
				if (params.value === "first") await firstDone;
				return { content: [{ type: "text", text: "ok" }], details: {} };
			},
		};

		// fast 没声明 executionMode，本来可以并发，但整批串行把它也拖住了
		const fast: AgentTool<typeof echoSchema> = {
			name: "fast",
			label: "Fast",
			description: "快工具，未声明 executionMode",
			parameters: echoSchema,
			async execute(_toolCallId, params) {
				started.push(`fast:${params.value}`);
				return { content: [{ type: "text", text: "ok" }], details: {} };
			},
		};

		const context: AgentContext = { messages: [], tools: [slow, fast] };
		const config: AgentLoopConfig = {
			model: {
				id: "mock", name: "mock", api: "openai-responses", provider: "openai",
				baseUrl: "https://example.invalid", reasoning: false, input: ["text"],
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
				contextWindow: 8192, maxTokens: 2048,
			},
			convertToLlm: (messages) => messages as never,
			toolExecution: "parallel",   // 全局是并行
		};

		const userMessage: AgentMessage = { role: "user", content: "跑", timestamp: Date.now() };

		let callIndex = 0;
		const stream = agentLoop([userMessage], context, config, undefined, () => {
			const mock = createAssistantMessageEventStream();
			queueMicrotask(() => {
				if (callIndex === 0) {
					mock.push({
						type: "done",
						reason: "toolUse",
						message: {
							role: "assistant",
							content: [
								{ type: "toolCall", id: "tool-1", name: "slow", arguments: { value: "first" } },
								{ type: "toolCall", id: "tool-2", name: "fast", arguments: { value: "second" } },
							],
							api: "openai-responses", provider: "openai", model: "mock",
							usage: {
								input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0,
								cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
							},
							stopReason: "toolUse",
							timestamp: Date.now(),
						},
					});
					setTimeout(() => releaseFirst?.(), 20);
				} else {
					mock.push({
						type: "done",
						reason: "stop",
						message: {
							role: "assistant", content: [{ type: "text", text: "done" }],
							api: "openai-responses", provider: "openai", model: "mock",
							usage: {
								input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0,
								cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
							},
							stopReason: "stop",
							timestamp: Date.now(),
						},
					});
				}
				callIndex++;
			});
			return mock;
		});

		for await (const _event of stream) {
			// 消费事件流
		}

		// 慢工具先开始且未完成时，快工具不能启动 —— 说明整批串行
		expect(started).toEqual(["slow:first", "fast:second"]);
	});
});
