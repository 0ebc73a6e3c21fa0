// AgentSession compacts by itself: near the context window during a run, and after a context-overflow error,
// against the real providers and the scripted model server; resuming the file rebuilds the same context.
import { describe, expect, it } from "vitest";
import type { AssistantMessage } from "../../../../src/core/index.js";
import {
	type CompactionEntry,
	SUMMARY_LEAD_IN,
	SessionStore,
	compactionThreshold,
	loadSessionFile,
	resolveCompactionSettings,
} from "../../../../src/core/session/index.js";
import { tempDir } from "../../../support/temp-dir.js";
import { messagesOf, textOf } from "../compaction/server-model.js";
import {
	ROOMY,
	TINY,
	answerSummaries,
	isSummaryRequest,
	openSession,
	orphanToolResults,
	writeModelsJson,
} from "../compaction-session-fixtures.js";
import { useScriptedServer } from "../../../support/use-scripted-server.js";

const server = useScriptedServer();

const TURNS = 14;
const SETTINGS = { reserveTokens: 1000, keepRecentTokens: 800 };
const THRESHOLD = compactionThreshold(4000, resolveCompactionSettings(SETTINGS));

function enqueueLookingRun(): void {
	for (let i = 0; i < TURNS; i++) server.enqueue({ toolCalls: [{ id: `call_${i}`, name: "look", arguments: { topic: `topic-${i}` } }] });
	server.enqueue({ text: "All topics looked at." });
}

describe("automatic compaction near the context window", () => {
	it("compacts exactly when the next request would pass the threshold, keeps tool calls with their results, and resumes to the same context", async () => {
		const home = writeModelsJson(tempDir(), server);
		const summaries = answerSummaries(server);
		enqueueLookingRun();
		const { session, events } = openSession(home, TINY, { compaction: SETTINGS });
		const requestTokens: number[] = [];
		const compactionTokens: number[] = [];
		session.subscribe((event) => {
			// At an answer's start the agent holds exactly what its request carried; at compaction_start what it would have.
			if (event.type === "message_start" && event.message.role === "assistant") requestTokens.push(session.contextUsage.tokens);
			if (event.type === "compaction_start") compactionTokens.push(session.contextUsage.tokens);
		});

		const outcome = await session.runPrompt("Look at every topic.");

		expect(outcome.status).toBe("done");
		expect(outcome.message?.content).toEqual([{ type: "text", text: "All topics looked at." }]);
		expect(THRESHOLD).toBe(3000);
		// The right moment: never before the threshold is passed, never a request sent above it.
		expect(summaries.count()).toBeGreaterThanOrEqual(2);
		expect(compactionTokens).toHaveLength(summaries.count());
		for (const tokens of compactionTokens) expect(tokens).toBeGreaterThan(THRESHOLD);
		expect(requestTokens).toHaveLength(TURNS + 1);
		for (const tokens of requestTokens) expect(tokens).toBeLessThanOrEqual(THRESHOLD);
		const compactionEvents = events.filter((event) => event.type === "compaction_start" || event.type === "compaction_end");
		expect(compactionEvents[0]).toEqual({ type: "compaction_start", reason: "threshold" });
		expect(compactionEvents[1]).toMatchObject({ type: "compaction_end", reason: "threshold", aborted: false, summary: expect.stringContaining("SUMMARY 1") });

		// The summary request carries the older part; the next normal request the summary and the kept part.
		const firstSummary = server.requests.findIndex(isSummaryRequest);
		const summaryRequest = server.requests[firstSummary]!;
		expect(textOf(summaryRequest)).toContain("[User]: Look at every topic.");
		const file = await loadSessionFile(session.sessionFile!);
		const compactions = file.entries.filter((entry): entry is CompactionEntry => entry.type === "compaction");
		expect(compactions).toHaveLength(summaries.count());
		const keptIndex = file.entries.findIndex((entry) => entry.id === compactions[0]!.firstKeptEntryId);
		const kept = file.entries.slice(keptIndex, file.entries.indexOf(compactions[0]!));
		const keptReports = kept.flatMap((entry) => (entry.type === "message" && entry.message.role === "toolResult" ? [(entry.message.content[0] as any).text.slice(0, 18)] : []));
		expect(keptReports.length).toBeGreaterThan(0);
		const next = server.requests[firstSummary + 1]!;
		expect(isSummaryRequest(next)).toBe(false);
		expect(messagesOf(next)[0]).toMatchObject({ role: "user", content: expect.stringContaining(SUMMARY_LEAD_IN) });
		expect(textOf(next)).toContain("SUMMARY 1");
		expect(textOf(next)).not.toContain("Look at every topic.");
		for (const report of keptReports) {
			expect(textOf(next)).toContain(report);
			expect(textOf(summaryRequest)).not.toContain(report);
		}
		const normal = server.requests.filter((request) => !isSummaryRequest(request));
		for (const request of normal) expect(orphanToolResults(request)).toEqual([]);
		// The second summary builds on the first.
		const secondSummary = server.requests.filter(isSummaryRequest)[1]!;
		expect(textOf(secondSummary)).toContain("<previous-summary>\\n## Goal\\nSUMMARY 1");
		expect(textOf(normal.at(-1)!)).toContain(`SUMMARY ${summaries.count()}`);

		// The file keeps every message; compaction entries sit between them.
		const messages = file.entries.filter((entry) => entry.type === "message");
		expect(messages).toHaveLength(1 + TURNS * 2 + 1);
		expect(compactions[0]).toMatchObject({ summary: expect.stringContaining("SUMMARY 1"), tokensBefore: expect.any(Number) });
		expect(compactions[0]!.tokensBefore).toBeGreaterThan(2000);

		// Resuming gives the same context: same messages, same accounting, and the next request starts with the summary.
		const before = { messages: JSON.parse(JSON.stringify(session.messages)), usage: session.contextUsage };
		session.dispose();
		const { session: resumed, events: resumedEvents } = openSession(home, TINY, {
			compaction: SETTINGS,
			store: await SessionStore.open(file.file),
		});
		expect(JSON.parse(JSON.stringify(resumed.messages))).toEqual(before.messages);
		expect(resumed.contextUsage).toEqual(before.usage);
		server.enqueue({ text: "Resumed." });
		const sent = server.requests.length;
		expect((await resumed.runPrompt("And now?")).status).toBe("done");
		expect(resumedEvents.some((event) => event.type === "compaction_start")).toBe(false);
		const resumedRequest = messagesOf(server.requests[sent]!);
		expect(resumedRequest[0].content).toContain(`SUMMARY ${summaries.count()}`);
		expect(resumedRequest).toHaveLength(before.messages.length + 1);
		expect(resumedRequest.at(-1)).toMatchObject({ role: "user", content: "And now?" });
		resumed.dispose();
	});

	it("does not compact with compaction.enabled false (the requests simply grow)", async () => {
		const home = writeModelsJson(tempDir(), server);
		const summaries = answerSummaries(server);
		enqueueLookingRun();
		const { session, events } = openSession(home, TINY, { compaction: { ...SETTINGS, enabled: false } });
		expect((await session.runPrompt("Look at every topic.")).status).toBe("done");
		expect(summaries.count()).toBe(0);
		expect(events.some((event) => event.type === "compaction_start")).toBe(false);
		expect(session.contextUsage.tokens).toBeGreaterThan(4000);
		session.dispose();
	});
});

describe("recovery from a context overflow", () => {
	async function conversationOfFour(home: string, compaction?: { enabled: boolean }) {
		const opened = openSession(home, ROOMY, { compaction });
		for (let i = 0; i < 4; i++) {
			server.enqueue({ text: `answer ${i}: ${"a".repeat(2000)}` });
			expect((await opened.session.runPrompt(`question ${i}`)).status).toBe("done");
		}
		return opened;
	}

	it("compacts once and retries the turn, transparently for the caller; the file keeps every message", async () => {
		const home = writeModelsJson(tempDir(), server);
		const { session, events } = await conversationOfFour(home);
		answerSummaries(server, "OVERFLOW SUMMARY");
		server.enqueue({ contextOverflow: true, contextWindow: 100_000, requestedTokens: 120_000 }, { text: "recovered" });
		const firstOfTurn = events.length;

		const outcome = await session.runPrompt("final question");

		expect(outcome).toMatchObject({ status: "done", message: { stopReason: "stop", content: [{ type: "text", text: "recovered" }] } });
		const turn = events.slice(firstOfTurn).map((event) => (event.type === "message_end" ? `message_end:${(event.message as AssistantMessage).stopReason ?? event.message.role}` : event.type));
		const failed = turn.indexOf("message_end:error");
		expect(turn.slice(failed)).toEqual(
			expect.arrayContaining(["message_end:error", "compaction_start", "compaction_end", "agent_start", "message_end:stop"]),
		);
		expect(turn.indexOf("compaction_start")).toBeGreaterThan(failed);
		expect(turn.lastIndexOf("agent_start")).toBeGreaterThan(turn.indexOf("compaction_end"));
		expect(events.find((event) => event.type === "compaction_start")).toEqual({ type: "compaction_start", reason: "overflow" });

		const [overflowed, summary, retry] = server.requests.slice(-3);
		expect(textOf(overflowed!)).toContain("question 0");
		expect(isSummaryRequest(summary!)).toBe(true);
		expect(textOf(summary!)).toContain("[User]: question 0");
		expect(textOf(summary!)).not.toContain("final question");
		expect(textOf(retry!)).toContain("OVERFLOW SUMMARY 1");
		expect(textOf(retry!)).toContain("final question");
		expect(textOf(retry!)).not.toContain("question 0");
		expect(messagesOf(retry!).map((message) => message.role)).toEqual(["user", "user"]);

		const file = await loadSessionFile(session.sessionFile!);
		const stops = file.entries.flatMap((entry) => (entry.type === "message" && entry.message.role === "assistant" ? [entry.message.stopReason] : []));
		expect(stops).toEqual(["stop", "stop", "stop", "stop", "error", "stop"]);
		expect(file.entries.filter((entry) => entry.type === "compaction")).toHaveLength(1);
		session.dispose();
	});

	it("keeps the prompt's run open from the failed request through the compaction to the retried answer", async () => {
		const home = writeModelsJson(tempDir(), server);
		const { session, events } = await conversationOfFour(home);
		answerSummaries(server);
		server.enqueue({ contextOverflow: true }, { text: "recovered" });
		const firstOfTurn = events.length;
		expect((await session.runPrompt("final question")).status).toBe("done");
		const lifecycle = events
			.slice(firstOfTurn)
			.map((event) => event.type)
			.filter((type) => ["run_start", "run_end", "agent_start", "agent_end", "compaction_start", "compaction_end"].includes(type));
		expect(lifecycle).toEqual(["run_start", "agent_start", "agent_end", "compaction_start", "compaction_end", "agent_start", "agent_end", "run_end"]);
		session.dispose();
	});

	it("retries only once: an overflow that persists ends the run as an error after one compaction", async () => {
		const home = writeModelsJson(tempDir(), server);
		const { session, events } = await conversationOfFour(home);
		answerSummaries(server);
		server.enqueue({ contextOverflow: true }, { contextOverflow: true });
		const outcome = await session.runPrompt("final question");
		expect(outcome.status).toBe("error");
		expect(outcome.errorMessage).toMatch(/context|too long|maximum/i);
		expect(events.filter((event) => event.type === "compaction_start")).toHaveLength(1);
		expect(server.requests.filter(isSummaryRequest)).toHaveLength(1);
		expect(server.pending()).toBe(0);
		session.dispose();
	});

	it("an abort during the overflow's compaction ends the run as aborted: no compaction written, no retry", async () => {
		const home = writeModelsJson(tempDir(), server);
		const { session, events } = await conversationOfFour(home);
		server.setResponder((_body, _index, request) => (isSummaryRequest(request) ? { hangMs: 60_000, text: "late" } : undefined));
		server.enqueue({ contextOverflow: true }, { text: "never asked" });
		const sent = server.requests.length;
		const running = session.runPrompt("final question");
		await server.waitForRequests(sent + 2);
		await session.abort();

		expect((await running).status).toBe("aborted");
		expect(events.filter((event) => event.type === "compaction_end")).toEqual([{ type: "compaction_end", reason: "overflow", aborted: true, error: undefined }]);
		expect(server.requests).toHaveLength(sent + 2);
		expect(server.pending()).toBe(1);
		const file = await loadSessionFile(session.sessionFile!);
		expect(file.entries.some((entry) => entry.type === "compaction")).toBe(false);
		expect(file.entries.at(-1)).toMatchObject({ type: "message", message: { role: "assistant", stopReason: "error" } });
		session.dispose();
	});

	it("with compaction disabled, an overflow is reported as it is", async () => {
		const home = writeModelsJson(tempDir(), server);
		const { session, events } = await conversationOfFour(home, { enabled: false });
		server.enqueue({ contextOverflow: true }, { text: "never asked" });
		expect((await session.runPrompt("final question")).status).toBe("error");
		expect(events.some((event) => event.type === "compaction_start")).toBe(false);
		expect(server.pending()).toBe(1);
		session.dispose();
	});
});
