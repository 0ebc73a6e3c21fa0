import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../src/core/engine/agent-types.js";
import { assistant } from "./events.js";
import { FakeSession } from "./fake-session.js";
import { mount } from "./mount-app.js";

const ENTER = "\r";
const UP = "\u001b[A";
const PASTE_START = "\u001b[200~";
const PASTE_END = "\u001b[201~";

const lines = (n: number) => Array.from({ length: n }, (_, i) => `pasted line ${i + 1}`).join("\n");

/** The editor's first row. */
function editorRow(frame: string): string | undefined {
	return frame.split("\n").find((row) => row.startsWith("│› "));
}

describe("the screen shows and remembers prompts as typed, and sends what they stand for", () => {
	it("shows a large paste as its marker, sends the paste, and Up brings the marker back with its paste", async () => {
		const session = new FakeSession(() => [{ type: "message_end", message: assistant("Got it.") }]);
		const screen = mount(session);
		await screen.until((f) => f.includes("Ask loom"));
		await screen.type("A ", PASTE_START, lines(200), PASTE_END, " Z", ENTER);
		await screen.until((f) => f.includes("Got it."));
		expect(session.calls.prompts).toEqual([`A ${lines(200)} Z`]);
		expect(session.promptOptions[0]).toEqual({ typed: "A [pasted 200 lines] Z" });
		expect(screen.frame()).toContain("› A [pasted 200 lines] Z");
		expect(screen.frame()).not.toContain("pasted line 17");

		await screen.type(UP);
		await screen.until((f) => editorRow(f)?.includes("› A [pasted 200 lines] Z") === true);
		await screen.type(ENTER);
		await screen.until(() => session.calls.prompts.length === 2);
		expect(session.calls.prompts[1]).toBe(`A ${lines(200)} Z`);
	});

	it("shows a prompt template's or skill's command line, and sends its text", async () => {
		const session = new FakeSession();
		session.commands.register({
			name: "skill:release-notes",
			description: "write release notes",
			source: "skill",
			expand: async (args) => `<skill name="release-notes">\nStep one of the long body.\n</skill>\n\n${args}`,
			handler: () => {},
		});
		const screen = mount(session);
		await screen.until((f) => f.includes("Ask loom"));
		await screen.type("/skill:release-notes since v1.2", ENTER);
		await screen.until((f) => f.includes("echo: <skill") && f.includes("ready"));
		expect(session.calls.prompts).toEqual(['<skill name="release-notes">\nStep one of the long body.\n</skill>\n\nsince v1.2']);
		expect(session.promptOptions[0]).toEqual({ typed: "/skill:release-notes since v1.2" });
		const frame = screen.frame();
		expect(frame).toContain("› /skill:release-notes since v1.2");
		expect(frame.split("\n").filter((row) => row.includes("Step one of the long body")).length).toBe(1);
		await screen.type(UP);
		await screen.until((f) => editorRow(f)?.includes("› /skill:release-notes since v1.2") === true);
	});

	it("shows a resumed session's prompts as typed, and recalls them so (a paste's marker only with its paste)", async () => {
		const session = new FakeSession();
		const typed = (typed: string, content: string): AgentMessage => ({ role: "user", typed, content, timestamp: 0 });
		session.messages = [
			typed("/skill:notes today", "<skill>the long body</skill>\n\ntoday"),
			assistant("First answer."),
			typed("see [pasted 12 lines]", `see ${lines(12)}`),
			assistant("Second answer."),
		];
		session.messageCount = 4;
		const screen = mount(session);
		await session.emit({ type: "session_open", sessionId: "s", file: "/s/old.jsonl", cwd: session.cwd, provider: "test", model: "test-model", thinkingLevel: "medium", messageCount: 4 });
		const frame = await screen.until((f) => f.includes("Second answer."));
		expect(frame).toContain("› /skill:notes today");
		expect(frame).toContain("› see [pasted 12 lines]");
		expect(frame).not.toContain("the long body");
		await screen.type(UP);
		await screen.until((f) => f.includes("│  pasted line 12"));
		expect(screen.frame()).not.toContain("› see [pasted 12 lines]\n╰");
	});

	it("recalls a resumed session's command lines as typed", async () => {
		const session = new FakeSession();
		session.messages = [{ role: "user", typed: "/skill:notes today", content: "<skill>the long body</skill>\n\ntoday", timestamp: 0 }, assistant("First answer.")];
		session.messageCount = 2;
		const screen = mount(session);
		await session.emit({ type: "session_open", sessionId: "s", file: "/s/old.jsonl", cwd: session.cwd, provider: "test", model: "test-model", thinkingLevel: "medium", messageCount: 2 });
		await screen.until((f) => f.includes("First answer."));
		await screen.type(UP);
		await screen.until((f) => editorRow(f)?.includes("› /skill:notes today") === true);
	});

	it("shows a steering message as typed", async () => {
		const session = new FakeSession(() => [async () => new Promise((resolve) => setTimeout(resolve, 50_000))]);
		const screen = mount(session);
		await screen.type("start", ENTER);
		await screen.until((f) => f.includes("Steer the run"));
		await screen.type(PASTE_START, lines(30), PASTE_END, ENTER);
		await screen.until(() => session.calls.steers.length === 1);
		expect(session.calls.steers[0]).toBe(lines(30));
		expect(session.steerOptions[0]).toEqual({ typed: "[pasted 30 lines]" });
	});
});
