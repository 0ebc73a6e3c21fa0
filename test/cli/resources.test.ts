// End to end through the built loom: skills and prompt templates found in loom's home, the user's ~/.claude and
// the project, what the model is told about them, and problems reported on stderr without escape sequences.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { systemOf } from "../core/session/compaction/server-model.js";
import { writeTree } from "../support/project-tree.js";
import { workspace } from "../support/temp-dir.js";
import { runLoom, serverFlags, useScriptedServer } from "./loom-process.js";

const server = useScriptedServer();

const skill = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\nInstructions of ${name}.\n`;

describe("skills and prompt templates in print mode", () => {
	it("tells the model about every skill found, loom's and Claude Code's, the user's and the project's", async () => {
		const ws = workspace();
		writeTree(ws.home, { "skills/deploy/SKILL.md": skill("deploy", "Ship a release."), "user-home/.claude/skills/review/SKILL.md": skill("review", "Review a change.") });
		writeTree(ws.cwd, { ".loom/skills/bench/SKILL.md": skill("bench", "Run the benchmarks."), ".claude/skills/triage/SKILL.md": skill("triage", "Sort the issues.") });
		server.enqueue({ text: "ok" });
		const result = await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
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
		const result = await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("ok\n");
		expect(result.stderr.split("\n").filter(Boolean)).toEqual([
			`loom: warning: /compact from ${join(ws.cwd, ".loom/prompts/compact.md")} is hidden by the built-in command of that name; rename it to use it.`,
			`loom: warning: ${join(ws.cwd, ".loom/skills/wrong-name/SKILL.md")}: the name "right-name" must be the name of its folder, "wrong-name"; the skill is skipped.`,
		]);
	});

	it("writes a problem's path without the escape sequences a folder name may carry", async () => {
		const ws = workspace();
		writeTree(ws.cwd, { ".loom/skills/\u001b]0;pwned\u0007x/SKILL.md": "---\nname: x\n---\n" });
		server.enqueue({ text: "ok" });
		const result = await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(result.code).toBe(0);
		expect(result.stderr).toContain("/.loom/skills/");
		expect(result.stderr).toContain("the skill is skipped.");
		expect(result.stderr).not.toMatch(/[\u001b\u0007]/);
	});
});
