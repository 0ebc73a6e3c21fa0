import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../../../src/core/index.js";
import { streamModel } from "../../../../src/core/ai/index.js";
import {
	type CompactionError,
	buildCompactedContext,
	compact,
	convertToLlmWithSummaries,
	estimateContextTokens,
	estimateTokens,
} from "../../../../src/core/session/compaction/index.js";
import { SessionStore } from "../../../../src/core/session/index.js";
import type { RecordedRequest } from "../../../support/scripted-model-server.mjs";
import { tempDir } from "../../../support/temp-dir.js";
import { builtinTools } from "../../../support/builtin-tools.js";
import { assistant, call, result, user } from "./fixtures.js";
import { type Protocol, TEST_KEY, messagesOf, serverModel, textOf } from "./server-model.js";
import { useScriptedServer } from "../../../support/use-scripted-server.js";

const server = useScriptedServer();

/** Task k: read f-k.ts (a long result), edit it, report. About 375 tokens. */
function exchange(k: number): AgentMessage[] {
	return [
		user(`task ${k}: fix f-${k}.ts`),
		assistant("", [call(`r${k}`, "read", { path: `f-${k}.ts` })]),
		result(`r${k}`, "read", `contents of f-${k}.ts ${"c".repeat(1200)}`),
		assistant("", [call(`e${k}`, "edit", { path: `f-${k}.ts`, edits: [{ oldText: "bug", newText: "fix" }] })]),
		result(`e${k}`, "edit", `Edited f-${k}.ts`),
		assistant(`done ${k}`),
	];
}

function storeWith(tasks: number[]): SessionStore {
	const store = SessionStore.create({ home: tempDir("loom-compact-"), cwd: "/work/project" });
	for (const k of tasks) for (const message of exchange(k)) store.append({ type: "message", message });
	return store;
}

function indexOfEntry(store: SessionStore, id: string): number {
	return store.entries.findIndex((entry) => entry.id === id);
}

/** Every tool result in a recorded request answers a tool call made earlier in that request. */
function expectToolResultsPaired(request: RecordedRequest): void {
	const calls = new Set<string>();
	let results = 0;
	for (const message of messagesOf(request)) {
		if (request.format === "openai") {
			for (const toolCall of message.tool_calls ?? []) calls.add(toolCall.id);
			if (message.role === "tool") {
				results++;
				expect(calls.has(message.tool_call_id)).toBe(true);
			}
		} else if (Array.isArray(message.content)) {
			for (const block of message.content) {
				if (block.type === "tool_use") calls.add(block.id);
				if (block.type === "tool_result") {
					results++;
					expect(calls.has(block.tool_use_id)).toBe(true);
				}
			}
		}
	}
	expect(results).toBeGreaterThan(0);
}

/** Files whose read / edit result lies before the kept part (a file read and edited counts as modified). */
function summarisedFiles(store: SessionStore, keptIndex: number): { read: string[]; modified: string[] } {
	const done = new Set<string>();
	store.entries.slice(0, keptIndex).forEach((entry) => {
		if (entry.type === "message" && entry.message.role === "toolResult") done.add(entry.message.toolCallId);
	});
	const read: string[] = [];
	const modified: string[] = [];
	for (let k = 0; k <= 20; k++) {
		if (done.has(`e${k}`)) modified.push(`f-${k}.ts`);
		else if (done.has(`r${k}`)) read.push(`f-${k}.ts`);
	}
	return { read: read.sort(), modified: modified.sort() };
}

const list = (paths: string[]) => (paths.length > 0 ? paths.map((path) => `- ${path}`).join("\n") : "- (none)");

async function rejection(promise: Promise<unknown>): Promise<CompactionError> {
	const error = await promise.then(
		() => undefined,
		(reason: unknown) => reason,
	);
	expect((error as Error)?.name).toBe("CompactionError");
	return error as CompactionError;
}

describe.each<Protocol>(["anthropic-messages", "openai-completions"])("compact over %s", (api) => {
	it("summarises the older part; the next request carries the summary and the kept messages, no cut-off tool result", async () => {
		const store = storeWith([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
		const model = serverModel(server, api);
		const fileBefore = readFileSync(store.file!, "utf8");
		const tokensBefore = estimateContextTokens(buildCompactedContext(store.entries).messages);
		server.enqueue({ text: "## Goal\nFinish all tasks" });

		const compaction = await compact({ entries: store.entries, model, streamFn: streamModel, apiKey: TEST_KEY, settings: { keepRecentTokens: 1500 }, tools: builtinTools });

		expect(readFileSync(store.file!, "utf8")).toBe(fileBefore);
		expect(compaction.tokensBefore).toBe(tokensBefore);
		const keptIndex = indexOfEntry(store, compaction.firstKeptEntryId);
		const kept = store.entries.slice(keptIndex).map((entry) => (entry.type === "message" ? entry.message : undefined)) as AgentMessage[];
		const keptTokens = kept.reduce((sum, message) => sum + estimateTokens(message), 0);
		expect(keptTokens).toBeGreaterThan(1000);
		expect(keptTokens).toBeLessThan(2000);
		expect(["user", "assistant"]).toContain(kept[0]!.role);

		// The summary request holds the older messages, not the kept ones.
		const summaryRequest = textOf(server.requests[0]!);
		const firstKeptTask = Number(/task (\d+)/.exec(JSON.stringify(kept))![1]);
		for (let k = 0; k < firstKeptTask - 1; k++) expect(summaryRequest).toContain(`task ${k}: fix f-${k}.ts`);
		for (let k = firstKeptTask + 1; k <= 9; k++) expect(summaryRequest).not.toContain(`task ${k}:`);

		// The summary ends with the exact lists of files the summarised part touched.
		const { read, modified } = summarisedFiles(store, keptIndex);
		expect(modified.length).toBeGreaterThan(2);
		expect(compaction.summary).toBe(`## Goal\nFinish all tasks\n\n## Files read\n${list(read)}\n\n## Files modified\n${list(modified)}`);

		store.append({ type: "compaction", ...compaction });
		const view = buildCompactedContext(store.entries);
		server.enqueue({ text: "continuing" });
		const answer = await streamModel(model, { systemPrompt: "You are loom.", messages: convertToLlmWithSummaries(view.messages) }, { apiKey: TEST_KEY }).result();
		expect(answer.stopReason).toBe("stop");
		const next = server.requests[1]!;
		expect(textOf(next)).toContain("Finish all tasks");
		expect(textOf(next)).toContain("task 9: fix f-9.ts");
		expect(textOf(next)).not.toContain("task 0: fix f-0.ts");
		expectToolResultsPaired(next);
		store.close();
	});
});

describe("compact", () => {
	it("builds the second summary on the first and merges the file lists", async () => {
		const store = storeWith([0, 1, 2, 3, 4, 5]);
		const model = serverModel(server, "openai-completions");
		server.enqueue({ text: "## Goal\nFIRST SUMMARY" }, { text: "## Goal\nSECOND SUMMARY" });
		const first = await compact({ entries: store.entries, model, streamFn: streamModel, apiKey: TEST_KEY, settings: { keepRecentTokens: 800 }, tools: builtinTools });
		store.append({ type: "compaction", ...first });
		for (const k of [6, 7, 8, 9, 10]) for (const message of exchange(k)) store.append({ type: "message", message });

		const second = await compact({ entries: store.entries, model, streamFn: streamModel, apiKey: TEST_KEY, settings: { keepRecentTokens: 800 }, tools: builtinTools });
		const request = textOf(server.requests[1]!);
		expect(request).toContain("<previous-summary>\\n## Goal\\nFIRST SUMMARY\\n</previous-summary>");
		expect(request).not.toContain("## Files modified");
		// Only what the first summary did not cover: from its first kept entry on.
		expect(request).not.toContain("task 0: fix f-0.ts");
		expect(request).toContain("task 6: fix f-6.ts");
		expect(indexOfEntry(store, second.firstKeptEntryId)).toBeGreaterThan(indexOfEntry(store, first.firstKeptEntryId));
		expect(second.summary).toMatch(/^## Goal\nSECOND SUMMARY\n\n## Files read\n/);
		// Files of both summarised parts: before the first cut and between the two cuts.
		const { read, modified } = summarisedFiles(store, indexOfEntry(store, second.firstKeptEntryId));
		expect(modified).toContain("f-0.ts");
		expect(modified).toContain("f-7.ts");
		expect(second.summary.endsWith(`## Files read\n${list(read)}\n\n## Files modified\n${list(modified)}`)).toBe(true);

		store.append({ type: "compaction", ...second });
		const view = buildCompactedContext(store.entries);
		expect(view.messages[0]).toMatchObject({ role: "compactionSummary", summary: expect.stringContaining("SECOND SUMMARY") });
		expect(JSON.stringify(view.messages)).not.toContain("FIRST SUMMARY");
		store.close();
	});

	it("says there is nothing to compact when everything fits in the kept part, unless forced", async () => {
		const store = storeWith([0, 1]);
		const model = serverModel(server, "openai-completions");
		const error = await rejection(compact({ entries: store.entries, model, streamFn: streamModel, apiKey: TEST_KEY }));
		expect(error.code).toBe("nothing_to_compact");
		expect(error.message).toMatch(/^Nothing to compact: /);
		expect(server.requests).toHaveLength(0);

		server.enqueue({ text: "forced summary" });
		const forced = await compact({ entries: store.entries, model, streamFn: streamModel, apiKey: TEST_KEY, force: true });
		// Only the last answer stays: the cut is before the final assistant message.
		expect(indexOfEntry(store, forced.firstKeptEntryId)).toBe(store.entries.length - 1);
		expect(textOf(server.requests[0]!)).toContain("task 1: fix f-1.ts");
		store.close();
	});

	it("keeps less than keepRecentTokens when the model's window is tiny", async () => {
		const store = storeWith([0, 1, 2, 3, 4, 5, 6, 7]);
		// Default settings (keep 20,000) with a 4,000-token window: about 1,000 tokens are kept.
		const model = serverModel(server, "openai-completions", { contextWindow: 4000, maxTokens: 1000 });
		server.enqueue({ text: "tiny summary" });
		const compaction = await compact({ entries: store.entries, model, streamFn: streamModel, apiKey: TEST_KEY });
		const keptIndex = indexOfEntry(store, compaction.firstKeptEntryId);
		const kept = store.entries.slice(keptIndex).reduce((sum, entry) => sum + (entry.type === "message" ? estimateTokens(entry.message) : 0), 0);
		expect(kept).toBeLessThanOrEqual(1000 + 400);
		expect(kept).toBeGreaterThan(0);
		store.close();
	});

	it("aborted mid-summary, changes nothing: entries and file as they were, no compaction", async () => {
		const store = storeWith([0, 1, 2, 3, 4, 5, 6, 7]);
		const fileBefore = readFileSync(store.file!, "utf8");
		const entriesBefore = structuredClone(store.entries);
		server.enqueue({ endless: true, text: "## Goal ", chunkDelayMs: 10 });
		const controller = new AbortController();
		const pending = compact({
			entries: store.entries,
			model: serverModel(server, "anthropic-messages"),
			streamFn: streamModel,
			apiKey: TEST_KEY,
			signal: controller.signal,
			settings: { keepRecentTokens: 1000 },
		});
		await server.waitForRequests(1, 10_000);
		controller.abort();
		const error = await rejection(pending);
		expect(error.code).toBe("aborted");
		expect(store.entries).toEqual(entriesBefore);
		expect(readFileSync(store.file!, "utf8")).toBe(fileBefore);
		expect(buildCompactedContext(store.entries).compaction).toBeUndefined();
		store.close();
	});

	it("reports a provider failure as a compaction error and changes nothing", async () => {
		const store = storeWith([0, 1, 2, 3, 4, 5]);
		const entriesBefore = structuredClone(store.entries);
		server.enqueue({ status: 400, errorMessage: "model not found" });
		const error = await rejection(
			compact({ entries: store.entries, model: serverModel(server, "openai-completions"), streamFn: streamModel, apiKey: TEST_KEY, settings: { keepRecentTokens: 500 } }),
		);
		expect(error.code).toBe("summary_failed");
		expect(error.message).toContain("model not found");
		expect(store.entries).toEqual(entriesBefore);
		store.close();
	});
});
