// compact() on demand (the screen's /compact), abort during a compaction, and the context accounting the footer shows.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { estimateTokens, loadSessionFile, SessionStore } from "../../../src/core/session/index.js";
import { tempDir } from "../../support/temp-dir.js";
import { messagesOf, textOf } from "./compaction/server-model.js";
import { ROOMY, TINY, answerSummaries, isSummaryRequest, openSession, writeModelsJson } from "./compaction-session-fixtures.js";
import { useScriptedServer } from "../../support/use-scripted-server.js";

const server = useScriptedServer();

async function threeExchanges(home: string) {
	const opened = openSession(home, ROOMY);
	for (let i = 0; i < 3; i++) {
		server.enqueue({ text: `answer ${i}: ${"a".repeat(1500)}` });
		expect((await opened.session.runPrompt(`question ${i}`)).status).toBe("done");
	}
	return opened;
}

/** Answers summary requests only after the client has gone (or a minute), so an abort always lands mid-request. */
function hangSummaries(): void {
	server.setResponder((_body, _index, request) => (isSummaryRequest(request) ? { hangMs: 60_000, text: "## Goal\nlate" } : undefined));
}

describe("compact()", () => {
	it("summarises with the user's instructions, keeps the latest answer, and the next request starts from the summary", async () => {
		const home = writeModelsJson(tempDir(), server);
		const { session, events } = await threeExchanges(home);
		answerSummaries(server, "MANUAL SUMMARY");

		await session.compact("Focus on the parser work");

		const summaryRequest = server.requests.at(-1)!;
		expect(isSummaryRequest(summaryRequest)).toBe(true);
		expect(textOf(summaryRequest)).toContain("Additional instructions from the user for this summary:\\nFocus on the parser work");
		expect(textOf(summaryRequest)).toContain("[User]: question 0");
		// Forced: everything up to the latest answer is summarised, however little there is.
		expect(textOf(summaryRequest)).toContain("[User]: question 2");
		expect(textOf(summaryRequest)).not.toContain("answer 2");
		const compaction = events.filter((event) => event.type === "compaction_start" || event.type === "compaction_end");
		expect(compaction).toEqual([
			{ type: "compaction_start", reason: "manual" },
			expect.objectContaining({ type: "compaction_end", reason: "manual", aborted: false, summary: expect.stringContaining("MANUAL SUMMARY 1") }),
		]);
		expect(session.messages.map((message) => message.role)).toEqual(["compactionSummary", "assistant"]);
		expect(session.messages[1]).toMatchObject({ content: [{ type: "text", text: expect.stringContaining("answer 2") }] });

		server.enqueue({ text: "go on" });
		expect((await session.runPrompt("next")).status).toBe("done");
		const next = server.requests.at(-1)!;
		expect(messagesOf(next).map((message) => message.role)).toEqual(["user", "assistant", "user"]);
		expect(textOf(next)).toContain("MANUAL SUMMARY 1");
		expect(textOf(next)).not.toContain("question 0");
		const file = await loadSessionFile(session.sessionFile!);
		expect(file.entries.map((entry) => entry.type).filter((type) => type !== "model_change" && type !== "thinking_change")).toEqual([
			...Array<string>(6).fill("message"),
			"compaction",
			"message",
			"message",
		]);
		session.dispose();
	});

	it("reports nothing to compact as a compaction_end error, asks no model and writes nothing", async () => {
		const home = writeModelsJson(tempDir(), server);
		const { session, events } = openSession(home, ROOMY);
		await session.compact();
		expect(events.at(-1)).toMatchObject({ type: "compaction_end", reason: "manual", aborted: false, error: expect.stringContaining("Nothing to compact") });
		expect(server.requests).toHaveLength(0);
		expect(existsSync(session.sessionFile!)).toBe(false);
		session.dispose();
	});

	it("reports a retried summary request with retry_scheduled and retry_finished, like a prompt's", async () => {
		const home = writeModelsJson(tempDir(), server);
		const { session, events } = await threeExchanges(home);
		let summaryRequests = 0;
		server.setResponder((_body, _index, request) => {
			if (!isSummaryRequest(request)) return undefined;
			return ++summaryRequests === 1 ? { status: 500, retryAfter: 0.01 } : { text: "## Goal\nRETRIED SUMMARY" };
		});

		await session.compact();

		const reported = events.filter((e) => e.type.startsWith("retry_") || e.type.startsWith("compaction_"));
		expect(reported).toEqual([
			{ type: "compaction_start", reason: "manual" },
			expect.objectContaining({ type: "retry_scheduled", attempt: 1, delayMs: 10 }),
			{ type: "retry_finished", attempt: 1, success: true },
			expect.objectContaining({ type: "compaction_end", aborted: false, summary: expect.stringContaining("RETRIED SUMMARY") }),
		]);
		session.dispose();
	});

	it("refuses to start during a run", async () => {
		const home = writeModelsJson(tempDir(), server);
		const { session } = openSession(home, ROOMY);
		server.enqueue({ text: "slow answer", chunkSize: 1, chunkDelayMs: 20 });
		const running = session.runPrompt("hi");
		await server.waitForRequests(1);
		await expect(session.compact()).rejects.toThrow(/Cannot compact while a run is active/);
		await running;
		session.dispose();
	});
});

describe("abort during a compaction", () => {
	it("leaves the file byte for byte and the conversation as they were, and the session goes on", async () => {
		const home = writeModelsJson(tempDir(), server);
		const { session, events } = await threeExchanges(home);
		const bytes = readFileSync(session.sessionFile!);
		const messages = JSON.stringify(session.messages);
		const entries = session.entries.length;
		hangSummaries();

		const compacting = session.compact();
		await server.waitForRequests(4);
		await session.abort();
		await compacting;

		expect(events.at(-1)).toEqual({ type: "compaction_end", reason: "manual", aborted: true, error: undefined });
		expect(readFileSync(session.sessionFile!).equals(bytes)).toBe(true);
		expect(JSON.stringify(session.messages)).toBe(messages);
		expect(session.entries).toHaveLength(entries);

		server.setResponder(undefined);
		server.enqueue({ text: "still here" });
		expect((await session.runPrompt("are you there?")).status).toBe("done");
		expect(textOf(server.requests.at(-1)!)).toContain("question 0");
		session.dispose();
	});

	it("during a run ends the run as aborted with no compaction written; the next prompt compacts and runs", async () => {
		const home = writeModelsJson(tempDir(), server);
		const settings = { compaction: { reserveTokens: 1000, keepRecentTokens: 800 } };
		const { session, events } = openSession(home, TINY, settings);
		for (let i = 0; i < 8; i++) server.enqueue({ toolCalls: [{ id: `call_${i}`, name: "look", arguments: { topic: `topic-${i}` } }] });
		server.enqueue({ text: "done looking" });
		hangSummaries();
		const stop = session.subscribe((event) => {
			if (event.type !== "compaction_start") return;
			stop();
			void server.waitForRequests(server.requests.length + 1).then(() => session.abort());
		});

		const outcome = await session.runPrompt("Look at eight topics.");

		expect(outcome.status).toBe("aborted");
		expect(events.filter((event) => event.type === "compaction_end")).toEqual([
			{ type: "compaction_end", reason: "threshold", aborted: true, error: undefined },
		]);
		const file = await loadSessionFile(session.sessionFile!);
		expect(file.entries.some((entry) => entry.type === "compaction")).toBe(false);
		const roles = file.entries.flatMap((entry) => (entry.type === "message" ? [entry.message.role] : []));
		expect(roles[0]).toBe("user");
		expect(roles.filter((role) => role === "toolResult").length).toBeGreaterThanOrEqual(5);
		expect(file.entries.at(-1)).toMatchObject({ type: "message", message: { role: "assistant", stopReason: "aborted" } });

		answerSummaries(server);
		server.enqueue({ text: "back" });
		expect((await session.runPrompt("go on")).status).toBe("done");
		expect(events.filter((event) => event.type === "compaction_end").at(-1)).toMatchObject({ reason: "threshold", aborted: false });
		expect(textOf(server.requests.at(-1)!)).toContain("SUMMARY 1");
		session.dispose();
	});
});

describe("context accounting", () => {
	it("is the last reported usage plus an estimate of what was added since, against the model's window", async () => {
		const home = writeModelsJson(tempDir(), server);
		const { session } = openSession(home, ROOMY);
		server.enqueue(
			{ toolCalls: [{ id: "call_1", name: "look", arguments: { topic: "usage" } }], usage: { input: 1000, output: 20 } },
			{ text: "done", usage: { input: 1500, output: 10, cacheRead: 300 } },
		);
		let duringSecondRequest: number | undefined;
		session.subscribe((event) => {
			if (event.type === "message_start" && event.message.role === "assistant" && session.messages.length === 3) {
				duringSecondRequest = session.contextUsage.tokens;
			}
		});
		await session.runPrompt("count");
		const toolResult = session.messages[2]!;
		expect(toolResult.role).toBe("toolResult");
		expect(duringSecondRequest).toBe(1020 + estimateTokens(toolResult));
		expect(session.contextUsage).toEqual({ tokens: 1810, contextWindow: 100_000, percent: 1.8 });

		// A resumed session counts the same.
		session.dispose();
		const { session: resumed } = openSession(home, ROOMY, { store: await SessionStore.open(session.sessionFile!) });
		expect(resumed.contextUsage.tokens).toBe(1810);
		resumed.dispose();
	});
});
