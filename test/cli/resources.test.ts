// Skills and prompt templates found in loom's home, the user's ~/.claude and the project, what the model is told
// about them, and problems reported on stderr without escape sequences: in-process through the CLI's I/O seam, but
// for the built loom where the process matters (a FIFO to open, a library's warnings on the process's stderr).
import { execFileSync } from "node:child_process";
import { lutimesSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { escapeRegex } from "../../src/core/lib/text/matching.js";
import { messagesOf, systemOf } from "../core/session/compaction/server-model.js";
import { writeTree } from "../support/project-tree.js";
import { runLoomInProcess } from "../support/loom-in-process.js";
import { workspace } from "../support/temp-dir.js";
import { jsonLines, runLoom, serverFlags, sessionFiles, useScriptedServer } from "../support/loom-process.js";

const server = useScriptedServer();

const skill = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\nInstructions of ${name}.\n`;

describe("skills and prompt templates in print mode", () => {
	it("tells the model about every skill found, loom's and Claude Code's, the user's and the project's", async () => {
		const ws = workspace();
		writeTree(ws.home, { "skills/deploy/SKILL.md": skill("deploy", "Ship a release."), "user-home/.claude/skills/review/SKILL.md": skill("review", "Review a change.") });
		writeTree(ws.cwd, { ".loom/skills/bench/SKILL.md": skill("bench", "Run the benchmarks."), ".claude/skills/triage/SKILL.md": skill("triage", "Sort the issues.") });
		server.enqueue({ text: "ok" });
		const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(result.stderr).toBe("");
		expect(result.code).toBe(0);
		const system = systemOf(server.requests[0]!);
		const names = [...system.matchAll(/<name>(.*)<\/name>/g)].map((match) => match[1]);
		expect(names).toEqual(["deploy", "review", "bench", "triage"]);
		expect(system).toContain(`<location>${join(ws.cwd, ".claude/skills/triage/SKILL.md")}</location>`);
	});

	it("reports a skill it skips and a template a built-in hides on stderr, naming the file, and runs all the same", async () => {
		const ws = workspace();
		writeTree(ws.cwd, { ".loom/skills/wrong-name/SKILL.md": skill("right-name", "Mismatch."), ".loom/prompts/compact.md": "A template named like a built-in.\n" });
		server.enqueue({ text: "ok" });
		const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("ok\n");
		expect(result.stderr.split("\n").filter(Boolean)).toEqual([
			`loom: warning: /compact from ${join(ws.cwd, ".loom/prompts/compact.md")} is hidden by the built-in command of that name; rename it to use it.`,
			`loom: warning: ${join(ws.cwd, ".loom/skills/wrong-name/SKILL.md")}: the name "right-name" must be the name of its folder, "wrong-name"; the skill is skipped.`,
		]);
	});

	it("says each problem once until its file changes, not on every run", async () => {
		const ws = workspace();
		const skillFile = join(ws.cwd, ".loom/skills/wrong-name/SKILL.md");
		writeTree(ws.cwd, { ".loom/skills/wrong-name/SKILL.md": skill("right-name", "Mismatch."), ".loom/prompts/bad name.md": "x\n" });
		const run = async () => {
			server.enqueue({ text: "ok" });
			const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
			expect(result.code).toBe(0);
			return result.stderr.split("\n").filter(Boolean);
		};
		const first = await run();
		expect(first).toHaveLength(2);
		expect(first[0]).toContain(`${skillFile}: the name "right-name"`);
		expect(first[1]).toContain("bad name.md: \"bad name\" cannot be a command name");
		expect(await run()).toEqual([]);

		// Still broken after an edit: said again, once.
		writeTree(ws.cwd, { ".loom/skills/wrong-name/SKILL.md": skill("other-name", "Still a mismatch.") });
		const again = await run();
		expect(again).toHaveLength(1);
		expect(again[0]).toContain(`${skillFile}: the name "other-name"`);
		expect(await run()).toEqual([]);
	});

	// Links kept in a dotfiles repository that is not checked out here, a link pointing at itself, a named pipe.
	it("reports a SKILL.md or template that is a link leading nowhere, a link loop or a FIFO, once until it changes", async () => {
		const ws = workspace();
		const dangling = join(ws.cwd, ".loom/skills/linked/SKILL.md");
		const loop = join(ws.cwd, ".loom/prompts/loop.md");
		const pipe = join(ws.cwd, ".loom/prompts/pipe.md");
		writeTree(ws.cwd, { ".loom/skills/linked/": "", ".loom/prompts/": "" });
		symlinkSync(join(ws.home, "dotfiles/skills/linked/SKILL.md"), dangling);
		symlinkSync(loop, loop);
		execFileSync("mkfifo", [pipe]);
		const run = async () => {
			server.enqueue({ text: "ok" });
			const result = await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
			expect(result.code).toBe(0);
			expect(result.stdout).toBe("ok\n");
			return result.stderr.split("\n").filter(Boolean);
		};
		const first = await run();
		expect(first).toHaveLength(3);
		expect(first).toEqual(
			expect.arrayContaining([
				expect.stringMatching(new RegExp(`^loom: warning: ${escapeRegex(loop)}: .*loop\\.md.*; the prompt template is skipped\\.$`)),
				expect.stringMatching(new RegExp(`^loom: warning: ${escapeRegex(pipe)}: .*not a regular file.*; the prompt template is skipped\\.$`)),
				expect.stringMatching(new RegExp(`^loom: warning: ${escapeRegex(dangling)}: .*no such file.*; the skill is skipped\\.$`)),
			]),
		);
		expect(await run()).toEqual([]);

		// Pointed somewhere else that is missing too: said again, once.
		rmSync(dangling);
		symlinkSync(join(ws.home, "elsewhere/SKILL.md"), dangling);
		utimesLink(dangling);
		const again = await run();
		expect(again).toHaveLength(1);
		expect(again[0]).toContain(`${dangling}: `);
		expect(await run()).toEqual([]);
	});

	it("writes a problem's path without the escape sequences a folder name may carry", async () => {
		const ws = workspace();
		writeTree(ws.cwd, { ".loom/skills/\u001b]0;pwned\u0007x/SKILL.md": "---\nname: x\n---\n" });
		server.enqueue({ text: "ok" });
		const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(result.code).toBe(0);
		expect(result.stderr).toContain("/.loom/skills/");
		expect(result.stderr).toContain("the skill is skipped.");
		expect(result.stderr).not.toMatch(/[\u001b\u0007]/);
	});
});

/** Moves a link's own time forward, as a later edit would: the same second may not tell it apart. */
function utimesLink(path: string): void {
	const later = new Date(Date.now() + 5000);
	lutimesSync(path, later, later);
}

/** The text of the one user message a recorded request carried. */
function promptSent(index = 0): string {
	const users = messagesOf(server.requests[index]!).filter((message) => message.role === "user");
	expect(users).toHaveLength(1);
	const content = users[0].content;
	return typeof content === "string" ? content : content.map((part: any) => part.text ?? "").join("");
}

describe("a command in print mode's prompt", () => {
	const template = "---\ndescription: fix an issue\n---\nFix issue $1 in $2.\n";

	it("expands a prompt template as the screen does, in text and JSON mode", async () => {
		const ws = workspace();
		writeTree(ws.cwd, { ".loom/prompts/fix.md": template });
		server.enqueue({ text: "fixed" }, { text: "fixed again" });
		const text = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "/fix 42 parser"], ws);
		expect(text.stderr).toBe("");
		expect(text.stdout).toBe("fixed\n");
		expect(promptSent(0)).toBe("Fix issue 42 in parser.");

		const json = await runLoomInProcess(["--mode", "json", ...serverFlags(server.openaiBaseUrl), "/fix", "7", "lexer"], ws);
		expect(json.code).toBe(0);
		expect(promptSent(1)).toBe("Fix issue 7 in lexer.");
		expect(jsonLines(json.stdout).at(-1)).toMatchObject({ type: "run_end", status: "done" });
	});

	// The yaml package warns about tags it does not know on stderr, which in the screen would tear the frame.
	it("reads front matter with a YAML tag it does not know without the YAML library's warnings on stderr", async () => {
		const ws = workspace();
		writeTree(ws.cwd, {
			".loom/prompts/fix.md": "---\n!!js/function description: fix an issue\n---\nFix issue $1.\n",
			".loom/skills/review/SKILL.md": "---\nname: review\ndescription: !custom Review a change.\n---\nReview it.\n",
		});
		server.enqueue({ text: "fixed" });
		const result = await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "/fix 42"], ws);
		expect(result.stderr).toBe("");
		expect(result.stdout).toBe("fixed\n");
		expect(promptSent(0)).toBe("Fix issue 42.");
		expect(systemOf(server.requests[0]!)).toContain("<description>Review a change.</description>");
	});

	it("expands a skill, with @files before it and piped stdin after it as for any prompt", async () => {
		const ws = workspace();
		writeTree(ws.cwd, { ".loom/skills/review/SKILL.md": skill("review", "Review a change."), "notes.txt": "the notes" });
		server.enqueue({ text: "ok" });
		const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "@notes.txt", "/skill:review carefully"], { ...ws, input: "the diff\n" });
		expect(result.stderr).toBe("");
		const sent = promptSent();
		expect(sent).toMatch(/^<file name="[^"]*notes\.txt">\nthe notes\n<\/file>\n\n<skill name="review" location="[^"]*SKILL\.md">/);
		expect(sent).toContain("Instructions of review.\n</skill>\n\ncarefully\n\nthe diff");
	});

	it("sends a path as a prompt, and piped text starting with / as it is", async () => {
		const ws = workspace();
		writeTree(ws.cwd, { ".loom/prompts/fix.md": template });
		server.enqueue({ text: "a" }, { text: "b" });
		await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "/etc/hosts what is in it"], ws);
		expect(promptSent(0)).toBe("/etc/hosts what is in it");
		await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl)], { ...ws, input: "/fix 1 2\n" });
		expect(promptSent(1)).toBe("/fix 1 2");
	});

	it("refuses the session's other commands and unknown names as usage errors, sending nothing and keeping no session", async () => {
		const ws = workspace();
		writeTree(ws.cwd, { ".loom/prompts/fix.md": template });
		const model = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "/model gpt-5.6-terra"], ws);
		expect(model.code).toBe(2);
		expect(model.stdout).toBe("");
		expect(model.stderr).toMatch(/^loom: \/model is a command, not a prompt: .*-m, --thinking.*\n\(run loom --help for usage\)\n$/);
		const typo = await runLoomInProcess(["--mode", "json", ...serverFlags(server.openaiBaseUrl), "/fxi 42 parser"], ws);
		expect(typo.code).toBe(2);
		expect(typo.stdout).toBe("");
		expect(typo.stderr).toContain("loom: Unknown command /fxi. Prompt templates and skills: /fix. To send text starting with /, pipe it on stdin.");
		expect(server.requests).toHaveLength(0);
		expect(sessionFiles(ws.home)).toEqual([]);
	});
});
