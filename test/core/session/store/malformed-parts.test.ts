// A session file whose messages hold malformed content parts (a null part, a text part whose text is a number,
// an unknown part type), as an extension's bad tool_result once left: it loads with those parts skipped and a
// warning saying so, and the conversation goes on.
import { describe, expect, it } from "vitest";
import { AgentSession, SessionStore } from "../../../../src/core/session/index.js";
import { tempDir } from "../../../support/temp-dir.js";
import { useScriptedServer } from "../../../support/use-scripted-server.js";
import { assistant, scriptedSessionOptions, user } from "../session-fixtures.js";

const server = useScriptedServer();

function damagedSessionFile(home: string): string {
	const store = SessionStore.create({ home, cwd: "/project" });
	const call = { type: "toolCall", id: "c1", name: "echo", arguments: { text: "x" } };
	const answer = { ...assistant(""), content: [null, { type: "text", text: 7 }, call], stopReason: "toolUse" };
	const result = {
		role: "toolResult",
		toolCallId: "c1",
		toolName: "echo",
		content: [null, { type: "text", text: 42 }, { type: "text", text: "echo: x" }, { type: "video" }],
		isError: false,
		timestamp: Date.now(),
	};
	const emptied = { ...user(""), content: [null] };
	for (const message of [user("run it"), answer, result, assistant("done"), emptied, assistant("ok")]) {
		store.append({ type: "message", message: message as never });
	}
	store.close();
	return store.file!;
}

describe("a session file with malformed content parts", () => {
	it("resumes with the malformed parts skipped, says how many and where, and the next prompt runs", async () => {
		const home = tempDir();
		const file = damagedSessionFile(home);
		const session = new AgentSession(scriptedSessionOptions(server, home));
		await session.resume(file);
		const warnings = session.loadWarnings.join("\n");
		expect(warnings).toMatch(/line 3: 2 malformed content parts \(not well-formed parts of their message\) were skipped; the rest of the message loaded/);
		expect(warnings).toMatch(/line 4: 3 malformed content parts .* were skipped/);
		expect(warnings).toMatch(/line 6: 1 malformed content part \(not a well-formed part of its message\) was skipped/);

		server.enqueue({ text: "again" });
		expect((await session.runPrompt("go on")).status).toBe("done");
		const sent = server.requests.at(-1)!.body.messages;
		expect(sent.find((message: { role: string }) => message.role === "tool").content).toBe("echo: x");
		expect(session.messages.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "again" }] });
		session.dispose();
	});
});
