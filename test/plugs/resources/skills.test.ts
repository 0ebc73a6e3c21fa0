// Agent Skills on disk: where they are found and in which order, what the specification's front matter rules
// refuse (each reported with its path), and what /skill:<name> sends.
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resourceScope, skillDirs } from "../../../src/plugs/resources/resource-dirs.js";
import { loadSkills, skillPrompt } from "../../../src/plugs/resources/skills.js";
import { projectTree } from "../../support/project-tree.js";

const skill = (name: string, description: string, body = "Do the thing.") => `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

describe("loadSkills", () => {
	it("finds a SKILL.md in each skill's folder, the user's before the project's and loom's before Claude's", async () => {
		const root = projectTree({
			"home/skills/deploy/SKILL.md": skill("deploy", "Ship a release."),
			"user/.claude/skills/review/SKILL.md": skill("review", "Review a change."),
			"project/.loom/skills/bench/SKILL.md": skill("bench", "Run the benchmarks."),
			"project/.claude/skills/a-first/SKILL.md": skill("a-first", "Sorted by name within a folder."),
			"project/.claude/skills/notes/README.md": "a folder without SKILL.md is not a skill",
			"project/.claude/skills/loose.md": "neither is a file",
		});
		const dirs = skillDirs({ cwd: join(root, "project"), home: join(root, "home"), userHome: join(root, "user") });
		const { skills, problems } = await loadSkills(dirs);
		expect(skills.map((s) => [s.name, s.description, s.path.slice(root.length)])).toEqual([
			["deploy", "Ship a release.", "/home/skills/deploy/SKILL.md"],
			["review", "Review a change.", "/user/.claude/skills/review/SKILL.md"],
			["bench", "Run the benchmarks.", "/project/.loom/skills/bench/SKILL.md"],
			["a-first", "Sorted by name within a folder.", "/project/.claude/skills/a-first/SKILL.md"],
		]);
		expect(problems).toEqual([]);
	});

	it("reports each skill that breaks the front matter rules with its path and what to fix, and skips it", async () => {
		const root = projectTree({
			"skills/no-name/SKILL.md": "---\ndescription: Has no name.\n---\n",
			"skills/no-description/SKILL.md": "---\nname: no-description\n---\n",
			"skills/bad-yaml/SKILL.md": "---\nname: bad-yaml\ndescription: [unclosed\n---\n",
			"skills/unclosed/SKILL.md": "---\nname: unclosed\ndescription: No end.\n",
			"skills/other-folder/SKILL.md": skill("another-name", "Named unlike its folder."),
			"skills/Upper/SKILL.md": skill("Upper", "Capitals."),
			"skills/double--dash/SKILL.md": skill("double--dash", "Two dashes."),
			"skills/long/SKILL.md": skill("long", "x".repeat(1025)),
			"skills/numbers/SKILL.md": "---\nname: numbers\ndescription: 42\n---\n",
			"skills/no-front-matter/SKILL.md": "Just instructions.\n",
			"skills/good-1/SKILL.md": skill("good-1", "Still loaded."),
		});
		const { skills, problems } = await loadSkills([join(root, "skills")]);
		expect(skills.map((s) => s.name)).toEqual(["good-1"]);
		const at = (folder: string) => `${join(root, "skills", folder, "SKILL.md")}: `;
		const skipped = "; the skill is skipped.";
		expect(problems).toEqual([
			`${at("Upper")}the name "Upper" must be lowercase letters, digits and single hyphens (not at either end), at most 64 characters${skipped}`,
			expect.stringMatching(new RegExp(`^${at("bad-yaml").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}the front matter is not valid YAML: .*; the skill is skipped\\.$`)),
			`${at("double--dash")}the name "double--dash" must be lowercase letters, digits and single hyphens (not at either end), at most 64 characters${skipped}`,
			`${at("long")}the description is 1025 characters, over the 1024 allowed${skipped}`,
			`${at("no-description")}its front matter has no "description" (what the skill does and when to use it)${skipped}`,
			`${at("no-front-matter")}its front matter has no "name" (the skill's name, as its folder is named)${skipped}`,
			`${at("no-name")}its front matter has no "name" (the skill's name, as its folder is named)${skipped}`,
			`${at("numbers")}"description" must be text, not number${skipped}`,
			`${at("other-folder")}the name "another-name" must be the name of its folder, "other-folder"${skipped}`,
			`${at("unclosed")}the front matter that starts with "---" has no closing "---" line${skipped}`,
		]);
	});

	it("keeps the first skill of a name and reports the later one; follows a linked skill folder", async () => {
		const root = projectTree({
			"shared/review/SKILL.md": skill("review", "Linked in from elsewhere."),
			"home/skills/": "",
			"project/.loom/skills/review/SKILL.md": skill("review", "The project's own."),
		});
		symlinkSync(join(root, "shared/review"), join(root, "home/skills/review"));
		const { skills, problems } = await loadSkills([join(root, "home/skills"), join(root, "project/.loom/skills")]);
		expect(skills.map((s) => s.description)).toEqual(["Linked in from elsewhere."]);
		expect(problems).toEqual([
			`${join(root, "project/.loom/skills/review/SKILL.md")}: a skill named "review" is already loaded from ${join(root, "home/skills/review/SKILL.md")}; the skill is skipped.`,
		]);
	});

	it("refuses a SKILL.md over the size limit, and one that is a folder, naming the file", async () => {
		const root = projectTree({ "skills/huge/SKILL.md": skill("huge", "Too big.", "x".repeat(300 * 1024)), "skills/odd/SKILL.md/": "" });
		const { skills, problems } = await loadSkills([join(root, "skills")]);
		expect(skills).toEqual([]);
		expect(problems).toEqual([
			`${join(root, "skills/huge/SKILL.md")}: SKILL.md is 300.0 KB, over the 256.0 KB loom reads from it; the skill is skipped.`,
			`${join(root, "skills/odd/SKILL.md")}: Cannot read SKILL.md: it is a directory, not a file; the skill is skipped.`,
		]);
	});

	it("reads no folder twice when the project is the home directory", () => {
		const root = projectTree({ ".loom/": "" });
		expect(skillDirs({ cwd: root, home: join(root, ".loom"), userHome: root })).toEqual([join(root, ".loom/skills"), join(root, ".claude/skills")]);
	});

	it("counts a skill or template as the project's only in the project's folders that are not also the user's", () => {
		const away = { cwd: "/work/repo", home: "/home/me/.loom", userHome: "/home/me" };
		expect(resourceScope("/work/repo/.loom/skills/x/SKILL.md", away)).toBe("project");
		expect(resourceScope("/work/repo/.claude/commands/fix.md", away)).toBe("project");
		expect(resourceScope("/home/me/.claude/skills/x/SKILL.md", away)).toBe("user");
		expect(resourceScope("/home/me/.loom/prompts/fix.md", away)).toBe("user");
		const atHome = { cwd: "/home/me", home: "/home/me/.loom", userHome: "/home/me" };
		expect(resourceScope("/home/me/.claude/skills/x/SKILL.md", atHome)).toBe("user");
		expect(resourceScope("/home/me/.loom/prompts/fix.md", atHome)).toBe("user");
	});
});

describe("skillPrompt", () => {
	it("sends the instructions read afresh, where their relative paths point, then the request", async () => {
		const root = projectTree({ "skills/review/SKILL.md": skill("review", "Review.", "Old instructions.") });
		const [review] = (await loadSkills([join(root, "skills")])).skills;
		writeFileSync(review!.path, skill("review", "Review.", "Read checklist.md, then review."));
		expect(await skillPrompt(review!, "the last commit")).toBe(
			[`<skill name="review" location="${review!.path}">`, `Paths in this skill are relative to ${join(root, "skills/review")}.`, "", "Read checklist.md, then review.", "</skill>", "", "the last commit"].join("\n"),
		);
		expect(await skillPrompt(review!, "")).toMatch(/<\/skill>$/);
	});
});
