// The session's hook chains, composed into a real Agent's beforeToolCall / afterToolCall slots.
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { Agent, type AgentTool, type ToolResultMessage } from "../../../src/core/index.js";
import { type AfterLink, type BeforeLink, ToolHooks } from "../../../src/core/session/hook-chain.js";
import { assistant, call, mockModel, scriptedStream, text } from "../support/scripted-stream.js";

const valueSchema = Type.Object({ value: Type.String() });

function echoTool(log: string[]): AgentTool<typeof valueSchema> {
	return {
		name: "echo",
		label: "echo",
		description: "echo",
		parameters: valueSchema,
		async execute(_id, params) {
			log.push(`execute:${params.value}`);
			return { content: [text(`echoed ${params.value}`)], details: { value: params.value } };
		},
	};
}

/** Runs one turn calling echo("1") through an Agent whose slots hold the hooks' composed links. */
async function runOneCall(hooks: ToolHooks, calls = [call("a", "echo", { value: "1" })]) {
	const log: string[] = [];
	const agent = new Agent({
		initialState: { model: mockModel, tools: [echoTool(log)] },
		streamFn: scriptedStream([assistant(calls, "toolUse")]).streamFn,
		beforeToolCall: hooks.beforeToolCall,
		afterToolCall: hooks.afterToolCall,
	});
	const results: ToolResultMessage[] = [];
	let stoppedAfterBatch = true;
	agent.subscribe((event) => {
		if (event.type === "message_end" && event.message.role === "toolResult") results.push(event.message);
		// A second model call means the batch did not terminate the run.
		if (event.type === "message_end" && event.message.role === "assistant" && results.length > 0) stoppedAfterBatch = false;
	});
	await agent.prompt("go");
	return { log, results, stoppedAfterBatch };
}

const recordingBefore = (order: string[], name: string, result?: ReturnType<BeforeLink>): BeforeLink => () => {
	order.push(name);
	return result;
};

describe("hook chain order", () => {
	it("runs policy links, then extension links, then final links, each stage in the order its links were added", async () => {
		const hooks = new ToolHooks();
		const order: string[] = [];
		hooks.before.add(recordingBefore(order, "final"), { stage: "final", name: "final" });
		hooks.before.add(recordingBefore(order, "ext-1"), { stage: "extension", name: "ext-1" });
		hooks.before.add(recordingBefore(order, "policy"), { stage: "policy", name: "policy" });
		hooks.before.add(recordingBefore(order, "ext-2"), { stage: "extension", name: "ext-2" });
		await runOneCall(hooks);
		expect(order).toEqual(["policy", "ext-1", "ext-2", "final"]);
	});

	it("removes exactly the link whose remove function is called, once", async () => {
		const hooks = new ToolHooks();
		const order: string[] = [];
		const same = recordingBefore(order, "twice");
		const removeFirst = hooks.before.add(same, { stage: "policy", name: "first" });
		hooks.before.add(same, { stage: "policy", name: "second" });
		hooks.before.add(recordingBefore(order, "other"), { stage: "policy", name: "other" });
		removeFirst();
		removeFirst();
		await runOneCall(hooks);
		expect(order).toEqual(["twice", "other"]);
	});

	it("rejects an unknown stage with the stages it knows", () => {
		const hooks = new ToolHooks();
		expect(() => hooks.before.add(() => undefined, { stage: "late" as never, name: "x" })).toThrow('Unknown hook stage "late": use policy, extension, final.');
	});
});

describe("before-chain", () => {
	it("gives later links and the tool the arguments a link replaced, validated again", async () => {
		const hooks = new ToolHooks();
		const seen: unknown[] = [];
		hooks.before.add(() => ({ args: { value: "2" } }), { stage: "policy", name: "rewrite" });
		hooks.before.add(({ args }) => void seen.push(args), { stage: "extension", name: "look" });
		const { log } = await runOneCall(hooks);
		expect(seen).toEqual([{ value: "2" }]);
		expect(log).toEqual(["execute:2"]);

		const broken = new ToolHooks();
		broken.before.add(() => ({ args: {} }), { stage: "policy", name: "bad" });
		const refused = await runOneCall(broken);
		expect(refused.log).toEqual([]);
		expect(JSON.stringify(refused.results[0]!.content)).toContain("value");
	});

	it("lets a call through when no link blocks it, after every link has seen the validated arguments", async () => {
		const hooks = new ToolHooks();
		const seen: unknown[] = [];
		hooks.before.add(({ args }) => void seen.push(args), { stage: "policy", name: "a" });
		hooks.before.add(({ args }) => void seen.push(args), { stage: "extension", name: "b" });
		const { log } = await runOneCall(hooks);
		expect(seen).toEqual([{ value: "1" }, { value: "1" }]);
		expect(log).toEqual(["execute:1"]);
	});

	it("stops at the first block: its reason is what the model reads, its terminate is kept, later links do not run", async () => {
		const hooks = new ToolHooks();
		const order: string[] = [];
		hooks.before.add(recordingBefore(order, "allow"), { stage: "policy", name: "allow" });
		hooks.before.add(recordingBefore(order, "deny", { block: true, reason: "rm -rf is not allowed; delete exact paths", terminate: true }), {
			stage: "extension",
			name: "deny",
		});
		hooks.before.add(recordingBefore(order, "later", { block: true, reason: "later reason" }), { stage: "final", name: "later" });
		const { log, results, stoppedAfterBatch } = await runOneCall(hooks);
		expect(order).toEqual(["allow", "deny"]);
		expect(log).toEqual([]);
		expect(results[0]).toMatchObject({ isError: true, content: [text("rm -rf is not allowed; delete exact paths")] });
		expect(stoppedAfterBatch).toBe(true);
	});

	it("blocks the call when a link throws, naming the link and the error, and runs no later link", async () => {
		const hooks = new ToolHooks();
		const order: string[] = [];
		hooks.before.add(
			() => {
				throw new Error("rules file unreadable");
			},
			{ stage: "policy", name: "approval-rules" },
		);
		hooks.before.add(recordingBefore(order, "later"), { stage: "extension", name: "later" });
		const { log, results, stoppedAfterBatch } = await runOneCall(hooks);
		expect(order).toEqual([]);
		expect(log).toEqual([]);
		expect(results[0]).toMatchObject({ isError: true, content: [text('The policy hook "approval-rules" failed: rules file unreadable')] });
		expect(stoppedAfterBatch).toBe(false);
	});
	it("still blocks when a link's reason is not text, and the model reads which link blocked", async () => {
		const hooks = new ToolHooks();
		hooks.before.add(() => ({ block: true, reason: 404 }) as never, { stage: "extension", name: "numeric" });
		const { log, results } = await runOneCall(hooks);
		expect(log).toEqual([]);
		expect(results[0]).toMatchObject({ isError: true, content: [text('The extension hook "numeric" blocked the call (its reason was number, not text).')] });
	});
});

describe("after-chain", () => {
	it("applies overrides in order, field by field: each link sees the result as overridden so far", async () => {
		const hooks = new ToolHooks();
		const seen: { text: string; details: unknown; isError: boolean }[] = [];
		const observe: AfterLink = ({ result, isError }) => {
			seen.push({ text: (result.content[0] as { text: string }).text, details: result.details, isError });
			return undefined;
		};
		hooks.after.add(observe, { stage: "policy", name: "see-original" });
		hooks.after.add(() => ({ content: [text("redacted")] }), { stage: "policy", name: "redact" });
		hooks.after.add(observe, { stage: "extension", name: "see-redacted" });
		hooks.after.add(() => ({ details: { audited: true }, isError: true }), { stage: "extension", name: "audit" });
		hooks.after.add(observe, { stage: "final", name: "see-audited" });
		hooks.after.add(() => ({ isError: false }), { stage: "final", name: "forgive" });
		const { results } = await runOneCall(hooks);
		expect(seen).toEqual([
			{ text: "echoed 1", details: { value: "1" }, isError: false },
			{ text: "redacted", details: { value: "1" }, isError: false },
			{ text: "redacted", details: { audited: true }, isError: true },
		]);
		// details replaced whole (no merge with { value }), content from the first override, isError from the last.
		expect(results[0]).toMatchObject({ isError: false, content: [text("redacted")], details: { audited: true } });
		expect(results[0]!.details).not.toHaveProperty("value");
	});

	it("a later link's terminate replaces an earlier one's", async () => {
		const hooks = new ToolHooks();
		hooks.after.add(() => ({ terminate: true }), { stage: "policy", name: "stop" });
		expect((await runOneCall(hooks)).stoppedAfterBatch).toBe(true);
		hooks.after.add(() => ({ terminate: false }), { stage: "extension", name: "go-on" });
		expect((await runOneCall(hooks)).stoppedAfterBatch).toBe(false);
	});

	it("turns the result into an error result when a link throws, naming the link and the error; later links do not run", async () => {
		const hooks = new ToolHooks();
		const order: string[] = [];
		hooks.after.add(() => ({ content: [text("kept?")], terminate: true }), { stage: "policy", name: "first" });
		hooks.after.add(
			() => {
				throw new Error("audit log unavailable");
			},
			{ stage: "extension", name: "audit" },
		);
		hooks.after.add(() => void order.push("later"), { stage: "final", name: "later" });
		const { log, results, stoppedAfterBatch } = await runOneCall(hooks);
		expect(log).toEqual(["execute:1"]);
		expect(order).toEqual([]);
		expect(results[0]).toMatchObject({ isError: true, content: [text('The extension hook "audit" failed: audit log unavailable')] });
		expect(stoppedAfterBatch).toBe(false);
	});

	it("refuses a link's malformed result, saying which link and why, and the next link sees the result as it was", async () => {
		const reported: string[] = [];
		const hooks = new ToolHooks((text) => reported.push(text));
		const seen: unknown[] = [];
		hooks.after.add(() => ({ content: [text("fine"), null] }) as never, { stage: "policy", name: "nully" });
		hooks.after.add(() => ({ content: [{ type: "image", data: 1, mimeType: "image/png" }] }) as never, { stage: "extension", name: "pixels" });
		hooks.after.add(({ result }) => void seen.push(result.content), { stage: "final", name: "see" });
		const { results } = await runOneCall(hooks);
		expect(reported).toEqual([
			'The policy hook "nully" returned a malformed result (content[1] is null); the call keeps its own result.',
			'The extension hook "pixels" returned a malformed result (content[0].data is a number); the call keeps its own result.',
		]);
		expect(seen).toEqual([[text("echoed 1")]]);
		expect(results[0]).toMatchObject({ isError: false, content: [text("echoed 1")] });
	});

	it("leaves the result alone when no link gives anything", async () => {
		const hooks = new ToolHooks();
		hooks.after.add(() => undefined, { stage: "policy", name: "quiet" });
		const { results } = await runOneCall(hooks);
		expect(results[0]).toMatchObject({ isError: false, content: [text("echoed 1")], details: { value: "1" } });
	});
});
