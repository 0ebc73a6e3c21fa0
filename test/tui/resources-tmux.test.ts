// Skills and prompt templates in the interactive screen, typed like a user: /help lists them with their
// descriptions, /<template> and /skill:<name> send their text to the model, and a template the screen's own
// /help hides is reported.
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { messagesOf } from "../core/session/compaction/server-model.js";
import { useLoomInTmux } from "../support/loom-in-tmux.js";
import { writeTree } from "../support/project-tree.js";
import { type TmuxTerminal, hasTmux } from "../support/tmux-terminal.js";

describe.skipIf(!hasTmux())("skills and prompt templates in the screen (tmux)", () => {
	const { server, workspace, open } = useLoomInTmux("loom-resources");
	let terminal: TmuxTerminal;
	let skillFile: string;

	beforeAll(() => {
		const { cwd, home } = workspace();
		skillFile = join(home, "skills/release-notes/SKILL.md");
		writeTree(home, { "skills/release-notes/SKILL.md": "---\nname: release-notes\ndescription: Write release notes from the git log.\n---\nList user-visible changes only.\n" });
		writeTree(cwd, {
			".loom/prompts/fix.md": "---\ndescription: Fix a numbered issue\nargument-hint: <issue>\n---\nFix issue #$1 and add a test.\n",
			".claude/commands/help.md": "Hidden by the screen's /help.\n",
		});
		({ terminal } = open({ workspace: { cwd, home }, columns: 120, rows: 80 }));
	});

	it("lists them in /help, sends a template and a skill, and says which template /help hides", async () => {
		let text = await terminal.waitForScreen((t) => t.includes("ready") && t.includes("is hidden"), "the editor and the notice about /help");
		expect(text).toMatch(/\/help from .*\/\.claude\/commands\/help\.md is hidden by the built-in command of that name/);

		await terminal.typeLine("/help");
		text = await terminal.waitForScreen((t) => t.includes("Keys:"), "the help");
		expect(text).toMatch(/\/fix <issue> +Fix a numbered issue/);
		expect(text).toMatch(/\/skill:release-notes \[request\] +Write release notes from the git log\./);

		server.enqueue({ text: "Fixed it." });
		await terminal.typeLine("/fix 42");
		await terminal.waitForScreen((t) => t.includes("Fixed it.") && t.includes("ready"), "the answer to the template");
		expect(messagesOf(server.requests[0]!).at(-1).content).toBe("Fix issue #42 and add a test.");

		server.enqueue({ text: "Notes written." });
		await terminal.typeLine("/skill:release-notes since v1.2");
		await terminal.waitForScreen((t) => t.includes("Notes written.") && t.includes("ready"), "the answer to the skill");
		const sent = messagesOf(server.requests[1]!).at(-1).content;
		expect(sent).toContain(`<skill name="release-notes" location="${skillFile}">`);
		expect(sent).toContain("List user-visible changes only.");
		expect(sent.endsWith("</skill>\n\nsince v1.2")).toBe(true);
	});
});
