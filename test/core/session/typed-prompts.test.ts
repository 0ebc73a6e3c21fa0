// A prompt that stood for more than was typed (a paste's marker, a command line, shell output put ahead) keeps
// what was typed on its message; the lists of prompts name it so, and a file written before still loads.
import { describe, expect, it } from "vitest";
import { userMessage } from "../../../src/core/ai/messages.js";
import { SessionStore, listSessions, loadSessionFile, promptPoints, sessionTree } from "../../../src/core/session/index.js";
import { tempDir } from "../../support/temp-dir.js";
import { assistant, user } from "./session-fixtures.js";

const sent = "The user ran `echo hi` (exit code 0); its output:\n```\nhi\n```\n\nexplain that";

describe("a prompt as typed", () => {
	it("is kept on the message only when it differs from the text sent", () => {
		expect(userMessage(sent, undefined, "explain that")).toMatchObject({ typed: "explain that", content: sent });
		expect(userMessage("same", undefined, "same")).not.toHaveProperty("typed");
		expect(userMessage("plain")).not.toHaveProperty("typed");
	});

	it("names the prompt in /rewind's and /tree's lists and in /resume's, and comes back from the file", async () => {
		const home = tempDir();
		const store = SessionStore.create({ home, cwd: "/p" });
		store.append({ type: "message", message: user("an old prompt, written before prompts kept their typed form") });
		store.append({ type: "message", message: assistant("answer") });
		store.append({ type: "message", message: userMessage(sent, undefined, "explain that") });
		store.append({ type: "message", message: assistant("answer") });
		store.close();

		const loaded = await loadSessionFile(store.file!);
		expect(promptPoints(loaded.entries).map((point) => point.text)).toEqual(["an old prompt, written before prompts kept their typed form", "explain that"]);
		expect(sessionTree(loaded.entries, loaded.entries.at(-1)!.id).rows.map((row) => row.text)).toEqual([
			"an old prompt, written before prompts kept their typed form",
			"explain that",
		]);

		const forked = SessionStore.create({ home, cwd: "/q" });
		forked.append({ type: "message", message: userMessage("<skill>a very long body</skill>\n\nsince v1.2", undefined, "/skill:release-notes since v1.2") });
		forked.close();
		expect(listSessions(home, "/q")[0]?.firstPrompt).toBe("/skill:release-notes since v1.2");
	});
});
