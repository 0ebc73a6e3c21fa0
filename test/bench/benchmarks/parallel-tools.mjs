// Independent tool calls must overlap: 8 calls of a 200 ms tool, parallel versus sequential.
import { Type } from "@sinclair/typebox";
import { Agent, createAssistantMessageEventStream, emptyUsage } from "../../../dist/core/index.js";
import { ms, repeat } from "../lib.mjs";

const model = {
	id: "bench", name: "bench", api: "bench", provider: "bench", baseUrl: "", reasoning: false,
	input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1e6, maxTokens: 1e5,
};

function batchStream(calls) {
	let turn = 0;
	return () => {
		const stream = createAssistantMessageEventStream();
		const first = turn++ === 0;
		const content = first
			? Array.from({ length: calls }, (_, i) => ({ type: "toolCall", id: `c${i}`, name: "wait", arguments: {} }))
			: [{ type: "text", text: "done" }];
		const message = { role: "assistant", content, api: "bench", provider: "bench", model: "bench", usage: emptyUsage(), stopReason: first ? "toolUse" : "stop", timestamp: Date.now() };
		queueMicrotask(() => stream.push({ type: "done", reason: message.stopReason, message }));
		return stream;
	};
}

function waitTool(waitMs) {
	return {
		name: "wait", label: "wait", description: "waits", parameters: Type.Object({}),
		execute: () => new Promise((resolve) => setTimeout(() => resolve({ content: [{ type: "text", text: "ok" }], details: {} }), waitMs)),
	};
}

export default {
	name: "parallel tools",
	async run({ smoke }) {
		const waitMs = smoke ? 20 : 200;
		const runs = smoke ? 1 : 5;
		const timeBatch = (mode) =>
			repeat(runs, async () => {
				const agent = new Agent({ initialState: { model, tools: [waitTool(waitMs)] }, streamFn: batchStream(8), toolExecution: mode });
				const started = process.hrtime.bigint();
				await agent.prompt("go");
				return Number(process.hrtime.bigint() - started) / 1e6;
			});
		const parallel = await timeBatch("parallel");
		const sequential = await timeBatch("sequential");
		const workload = `batch of 8 calls of a tool waiting ${waitMs} ms`;
		return [
			{ metric: "parallel", workload, ...parallel, format: ms, target: `within 10% of ${waitMs} ms`, pass: parallel.median <= waitMs * 1.1 },
			{ metric: "sequential", workload, ...sequential, format: ms, target: `about ${(8 * waitMs) / 1000} s`, pass: sequential.median >= waitMs * 8 },
		];
	},
};
