import { describe, it } from "vitest";
import type { AgentMessage } from "../../src/core/agent-types.js";
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
});
