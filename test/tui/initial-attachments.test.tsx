// `loom @notes.txt "look"` on the screen: the @file the CLI read for the first prompt goes along without a second read.
import * as fs from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { buildPromptInput } from "../../src/cli/prompt-input.js";
import { mentionWord } from "../../src/core/index.js";
import { opened } from "../support/open-spy.js";
import { tempDir } from "../support/temp-dir.js";
import { FakeSession } from "./fake-session.js";
import { mount } from "./mount-app.js";

vi.mock("node:fs", async (importOriginal) => (await import("../support/open-spy.js")).withOpenSpy(await importOriginal()));

describe("the @file arguments of the first prompt", () => {
	it("are read once: by the CLI, whose reads the screen sends; a later prompt reads the file afresh", async () => {
		const session = new FakeSession();
		session.cwd = tempDir("loom-initial-");
		const file = join(session.cwd, "notes.txt");
		fs.writeFileSync(file, "alpha\n");
		opened.length = 0;
		// As run-session does: the CLI reads the files, the screen gets the prompt with a mention of each.
		const input = buildPromptInput(["notes.txt"], "look", "", session.cwd);
		const screen = mount(session, { initialPrompt: `look ${mentionWord("notes.txt")}`, initialAttachments: input.attached });
		await screen.until((f) => f.includes("ready") && session.calls.prompts.length === 1);
		expect(session.calls.prompts[0]).toBe(`<file name="${file}">\nalpha\n</file>\n\nlook @notes.txt`);
		expect(opened.filter((path) => path === file)).toHaveLength(1);

		fs.writeFileSync(file, "beta\n");
		await screen.type("again @notes.txt", "\r");
		await screen.until(() => session.calls.prompts.length === 2);
		expect(session.calls.prompts[1]).toBe(`<file name="${file}">\nbeta\n</file>\n\nagain @notes.txt`);
		expect(opened.filter((path) => path === file)).toHaveLength(2);
	});
});
