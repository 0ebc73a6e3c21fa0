import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../src/core/engine/agent-types.js";
import { tempDir } from "../support/temp-dir.js";
import { assistant } from "./events.js";
import { FakeSession } from "./fake-session.js";
import { mount } from "./mount-app.js";

const ENTER = "\r";
const UP = "\u001b[A";

const user = (content: string): AgentMessage => ({ role: "user", content, timestamp: 0 });

/** The editor's first row. */
function editorRow(frame: string): string | undefined {
	return frame.split("\n").find((row) => row.startsWith("│› "));
}

/** A screen of its own that sends `prompts` one after another, each answered, then goes. */
async function sendInASession(historyFile: string, prompts: readonly string[]): Promise<void> {
	const screen = mount(new FakeSession(), { historyFile });
	for (const prompt of prompts) {
		await screen.type(prompt);
		await screen.until((f) => editorRow(f)?.includes(`› ${prompt}`) === true);
		await screen.type(ENTER);
		await screen.until((f) => f.includes(`echo: ${prompt}`) && editorRow(f)?.includes("Ask loom") === true);
	}
	screen.unmount();
}

describe("the editor's history", () => {
	it("holds the prompts of a session opened with its conversation (loom -c, -r)", async () => {
		const session = new FakeSession();
		session.messages = [user("first question"), assistant("First answer."), user("second question"), assistant("Second answer.")];
		session.messageCount = 4;
		const screen = mount(session);
		await session.emit({ type: "session_open", sessionId: "s", file: "/s/old.jsonl", cwd: session.cwd, provider: "test", model: "test-model", thinkingLevel: "medium", messageCount: 4 });
		await screen.until((f) => f.includes("Second answer."));
		await screen.type(UP);
		await screen.until((f) => editorRow(f)?.includes("› second question") === true);
		await screen.type(UP);
		await screen.until((f) => editorRow(f)?.includes("› first question") === true);
	});

	it("after /resume, holds the resumed session's prompts after those typed before", async () => {
		const session = new FakeSession();
		session.sessions = [{ file: "/s/one.jsonl", id: "one", modified: new Date("2026-01-02T10:00:00Z"), firstPrompt: "the earlier question", messageCount: 7 }];
		const screen = mount(session);
		await screen.type("typed here", ENTER);
		await screen.until((f) => f.includes("echo: typed here"));
		await screen.type("/resume 1", ENTER);
		await screen.until((f) => f.includes("The earlier answer."));
		for (const expected of ["› the earlier question", "› /resume 1", "› typed here"]) {
			await screen.type(UP);
			await screen.until((f) => editorRow(f)?.includes(expected) === true);
		}
	});

	it("recalls the prompts typed in earlier sessions of the same project, newest first, and not another project's", async () => {
		const historyFile = join(tempDir("loom-history-"), "prompt-history.jsonl");
		await sendInASession(historyFile, ["the first question", "the second question", "the second question"]);

		const next = mount(new FakeSession(), { historyFile });
		await next.until((f) => editorRow(f)?.includes("Ask loom") === true);
		await next.type(UP);
		await next.until((f) => editorRow(f)?.includes("› the second question") === true);
		await next.type(UP);
		await next.until((f) => editorRow(f)?.includes("› the first question") === true);
		// The oldest stays put: Up again keeps it.
		await next.type(UP);
		await next.until((f) => editorRow(f)?.includes("› the first question") === true);

		const other = new FakeSession();
		other.cwd = "/work/another-project";
		const elsewhere = mount(other, { historyFile });
		await elsewhere.until((f) => editorRow(f)?.includes("Ask loom") === true);
		await elsewhere.type(UP);
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(editorRow(elsewhere.frame())).toContain("Ask loom");
	});

	it("with a session resumed, Up gives its prompts first, once, then the project's earlier ones", async () => {
		const historyFile = join(tempDir("loom-history-"), "prompt-history.jsonl");
		await sendInASession(historyFile, ["an older question", "first question"]);

		const session = new FakeSession();
		session.messages = [user("first question"), assistant("First answer."), user("second question"), assistant("Second answer.")];
		session.messageCount = 4;
		const screen = mount(session, { historyFile });
		await session.emit({ type: "session_open", sessionId: "s", file: "/s/old.jsonl", cwd: session.cwd, provider: "test", model: "test-model", thinkingLevel: "medium", messageCount: 4 });
		await screen.until((f) => f.includes("Second answer."));
		for (const expected of ["› second question", "› first question", "› an older question"]) {
			await screen.type(UP);
			await screen.until((f) => editorRow(f)?.includes(expected) === true);
		}
	});
});
