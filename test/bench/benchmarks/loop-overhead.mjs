// The agent loop's own cost: events delivered to listeners, and trivial tool calls, with no I/O at all.
import { Type } from "@sinclair/typebox";
import { Agent, createAssistantMessageEventStream, emptyUsage } from "../../../dist/core/index.js";
import { repeat, us } from "../lib.mjs";

const model = {
	id: "bench", name: "bench", api: "bench", provider: "bench", baseUrl: "", reasoning: false,
	input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1e6, maxTokens: 1e5,
};

function message(content, stopReason) {
	return { role: "assistant", content, api: "bench", provider: "bench", model: "bench", usage: emptyUsage(), stopReason, timestamp: Date.now() };
}

/** One model turn streaming `deltas` text deltas, as a provider would. */
function deltaStream(deltas) {
	return () => {
		const stream = createAssistantMessageEventStream();
		const partial = message([{ type: "text", text: "" }], "stop");
		queueMicrotask(() => {
			stream.push({ type: "start", partial });
			stream.push({ type: "text_start", contentIndex: 0, partial });
			for (let i = 0; i < deltas; i++) stream.push({ type: "text_delta", contentIndex: 0, delta: "x", partial });
			stream.push({ type: "done", reason: "stop", message: partial });
		});
		return stream;
	};
}

function toolBatchStream(calls) {
	let turn = 0;
	return () => {
		const stream = createAssistantMessageEventStream();
		const content =
			turn++ === 0
				? Array.from({ length: calls }, (_, i) => ({ type: "toolCall", id: `c${i}`, name: "noop", arguments: { n: i } }))
				: [{ type: "text", text: "done" }];
		const final = message(content, turn === 1 ? "toolUse" : "stop");
		queueMicrotask(() => stream.push({ type: "done", reason: final.stopReason, message: final }));
		return stream;
	};
}

const noopTool = {
	name: "noop", label: "noop", description: "does nothing",
	parameters: Type.Object({ n: Type.Number() }),
	execute: async () => ({ content: [{ type: "text", text: "ok" }], details: {} }),
};

export default {
	name: "loop overhead",
	async run({ smoke }) {
		const deltas = smoke ? 2_000 : 100_000;
		const calls = smoke ? 10 : 100;
		const runs = smoke ? 1 : 7;

		const perEvent = await repeat(runs, async () => {
			const agent = new Agent({ initialState: { model }, streamFn: deltaStream(deltas) });
			let count = 0;
			for (let i = 0; i < 3; i++) agent.subscribe(() => void count++);
			const started = process.hrtime.bigint();
			await agent.prompt("go");
			const elapsedUs = Number(process.hrtime.bigint() - started) / 1e3;
			return elapsedUs / (count / 3);
		});

		const perCall = await repeat(runs, async () => {
			const agent = new Agent({ initialState: { model, tools: [noopTool] }, streamFn: toolBatchStream(calls) });
			agent.subscribe(() => {});
			const started = process.hrtime.bigint();
			await agent.prompt("go");
			return Number(process.hrtime.bigint() - started) / 1e3 / calls;
		});

		return [
			{ metric: "per event", workload: `one run, ${deltas.toLocaleString("en")} text deltas, 3 listeners`, ...perEvent, format: us, target: "< 5 µs", pass: perEvent.median < 5 },
			{ metric: "per tool call", workload: `one batch of ${calls} trivial tool calls`, ...perCall, format: us, target: "< 50 µs", pass: perCall.median < 50 },
		];
	},
};
