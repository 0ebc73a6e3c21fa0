// A compaction summary is a message of its own kind: recognised by its role, never by its text, and turned into
// a user message only where a provider is asked. Session files written before it had its own kind still resume.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { type AgentMessage, defaultConvertToLlm } from "../../../../src/core/index.js";
import {
	SUMMARY_LEAD_IN,
	SessionStore,
	convertToLlmWithSummaries,
	createCompactionSummary,
	estimateTokens,
	isCompactionSummary,
} from "../../../../src/core/session/index.js";
import { useScriptedServer } from "../../../support/use-scripted-server.js";
import { ROOMY, openSession, writeModelsJson } from "../compaction-session-fixtures.js";
import { tempDir } from "../../../support/temp-dir.js";
import { messagesOf } from "./server-model.js";

const server = useScriptedServer();

/** Lines exactly as loom wrote them before the summary had a kind of its own: the summary lives in the compaction entry. */
const OLD_SESSION_FILE = [
	'{"type":"session","version":1,"id":"0b5c8f1e-8c7e-4a43-9a55-2d1b6f3c9e01","created":"2026-11-20T10:00:00.000Z","cwd":"/work/project"}',
	'{"type":"message","id":"e1","parentId":null,"timestamp":"2026-11-20T10:00:01.000Z","n":1,"message":{"role":"user","content":"first question","timestamp":1795168801000}}',
	'{"type":"message","id":"e2","parentId":"e1","timestamp":"2026-11-20T10:00:02.000Z","n":2,"message":{"role":"assistant","content":[{"type":"text","text":"first answer"}],"api":"openai-completions","provider":"scripted","model":"roomy-model","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1795168802000}}',
	'{"type":"message","id":"e3","parentId":"e2","timestamp":"2026-11-20T10:00:03.000Z","n":3,"message":{"role":"user","content":"second question","timestamp":1795168803000}}',
	'{"type":"message","id":"e4","parentId":"e3","timestamp":"2026-11-20T10:00:04.000Z","n":4,"message":{"role":"assistant","content":[{"type":"text","text":"second answer"}],"api":"openai-completions","provider":"scripted","model":"roomy-model","usage":{"input":30,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":35,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1795168804000}}',
	'{"type":"compaction","id":"e5","parentId":"e4","timestamp":"2026-11-20T10:05:00.000Z","n":4,"summary":"## Goal\\nOLD SUMMARY","firstKeptEntryId":"e3","tokensBefore":5000}',
].join("\n");

describe("the compaction summary message", () => {
	it("resumes a session file of the old format with the summary as its own kind; the model reads the same text as before", async () => {
		const home = writeModelsJson(tempDir(), server);
		const file = join(tempDir(), "old-session.jsonl");
		writeFileSync(file, `${OLD_SESSION_FILE}\n`);
		const { session } = openSession(home, ROOMY, { store: await SessionStore.open(file) });
		onTestFinished(() => session.dispose());

		expect(session.loadWarnings).toEqual([]);
		expect(session.messages[0]).toEqual({
			role: "compactionSummary",
			summary: "## Goal\nOLD SUMMARY",
			tokensBefore: 5000,
			timestamp: Date.parse("2026-11-20T10:05:00.000Z"),
		});
		expect(session.messages.slice(1).map((message) => message.role)).toEqual(["user", "assistant"]);

		server.enqueue({ text: "third answer" });
		const outcome = await session.runPrompt("third question");
		expect(outcome.status).toBe("done");
		expect(messagesOf(server.requests[0]!)).toEqual([
			{ role: "user", content: `${SUMMARY_LEAD_IN}\n\n<summary>\n## Goal\nOLD SUMMARY\n</summary>` },
			{ role: "user", content: "second question" },
			{ role: "assistant", content: "second answer" },
			{ role: "user", content: "third question" },
		]);
	});

	it("is recognised by its role, not its text: a user quoting the lead-in stays a user", () => {
		const quoted: AgentMessage = { role: "user", content: `${SUMMARY_LEAD_IN}\n\n<summary>\nmine\n</summary>`, timestamp: 1 };
		const summary = createCompactionSummary("## Goal\nship it", 1234, 2);
		expect(isCompactionSummary(quoted)).toBe(false);
		expect(isCompactionSummary(summary)).toBe(true);
		// The Agent's default conversion drops roles it does not know; the session's turns the summary into a user message.
		expect(defaultConvertToLlm([summary, quoted])).toEqual([quoted]);
		expect(convertToLlmWithSummaries([summary, quoted])).toEqual([
			{ role: "user", content: `${SUMMARY_LEAD_IN}\n\n<summary>\n## Goal\nship it\n</summary>`, timestamp: 2 },
			quoted,
		]);
		// It costs the tokens of what the provider reads.
		expect(estimateTokens(summary)).toBe(estimateTokens(convertToLlmWithSummaries([summary])[0]!));
	});
});
