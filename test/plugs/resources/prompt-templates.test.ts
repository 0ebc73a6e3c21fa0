// Prompt templates on disk: which files become commands, their descriptions, what a name must be, and how
// arguments fill a template.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expandTemplate, loadPromptTemplates, splitArguments, templatePrompt } from "../../../src/plugs/resources/prompt-templates.js";
import { promptDirs } from "../../../src/plugs/resources/resource-dirs.js";
import { projectTree } from "../../support/project-tree.js";

describe("loadPromptTemplates", () => {
	it("makes each .md file a command named after it, the user's folders before the project's", async () => {
		const root = projectTree({
			"home/prompts/review.md": "---\ndescription: Review a file for bugs\nargument-hint: <file>\n---\nReview $1 for bugs.\n",
			"user/.claude/commands/explain.md": "# Explain the code\n\nExplain $ARGUMENTS simply.\n",
			"project/.loom/prompts/release-2.md": "\n\nCut a release.\n",
			"project/.claude/commands/empty.md": "",
			"project/.claude/commands/notes.txt": "not a template",
			"project/.claude/commands/sub/nested.md": "subfolders are not read",
		});
		const dirs = promptDirs({ cwd: join(root, "project"), home: join(root, "home"), userHome: join(root, "user") });
		const { templates, problems } = await loadPromptTemplates(dirs);
		expect(templates.map((t) => [t.name, t.description, t.argsHint, t.path.slice(root.length)])).toEqual([
			["review", "Review a file for bugs", "<file>", "/home/prompts/review.md"],
			["explain", "Explain the code", undefined, "/user/.claude/commands/explain.md"],
			["release-2", "Cut a release.", undefined, "/project/.loom/prompts/release-2.md"],
			["empty", "prompt template", undefined, "/project/.claude/commands/empty.md"],
		]);
		expect(problems).toEqual([]);
	});

	it("reports a file whose name cannot be a command, a bad front matter, and a later template of a taken name", async () => {
		const root = projectTree({
			"user/Fix_Issue.md": "Fix it.",
			"user/broken.md": "---\ndescription: [\n---\nBody",
			"user/deploy.md": "Deploy from the user's folder.",
			"project/deploy.md": "Deploy from the project.",
		});
		const { templates, problems } = await loadPromptTemplates([join(root, "user"), join(root, "project")]);
		expect(templates.map((t) => t.description)).toEqual(["Deploy from the user's folder."]);
		expect(problems).toEqual([
			`${join(root, "user/Fix_Issue.md")}: "Fix_Issue" cannot be a command name: rename the file to lowercase letters, digits and dashes, starting with a letter; the prompt template is skipped.`,
			expect.stringMatching(/broken\.md: the front matter is not valid YAML: .*; the prompt template is skipped\.$/),
			`${join(root, "project/deploy.md")}: a prompt template named "deploy" is already loaded from ${join(root, "user/deploy.md")}; the prompt template is skipped.`,
		]);
	});

	it("cuts a long description to one line for /help", async () => {
		const root = projectTree({ "p/long.md": `---\ndescription: |\n  ${"word ".repeat(40)}\n  second line\n---\n` });
		const [long] = (await loadPromptTemplates([join(root, "p")])).templates;
		expect(long!.description).toHaveLength(120);
		expect(long!.description).toMatch(/^word word .*…$/);
	});
});

describe("expandTemplate", () => {
	it("puts all the arguments for $ARGUMENTS and $@, and each one for $1, $2…", () => {
		expect(expandTemplate("Review $ARGUMENTS now.", "a.ts b.ts")).toBe("Review a.ts b.ts now.");
		expect(expandTemplate("All: $@", "x y")).toBe("All: x y");
		expect(expandTemplate("Move $1 to $2, then check $1.", "old.ts new.ts")).toBe("Move old.ts to new.ts, then check old.ts.");
		expect(expandTemplate('Title: $1; body: $2', '"Fix the bug" \'it crashes on start\'')).toBe("Title: Fix the bug; body: it crashes on start");
		expect(expandTemplate("First $1, third [$3]", "only")).toBe("First only, third []");
		expect(expandTemplate("Costs $5 and $ARGUMENTSX", "a b c d e")).toBe("Costs e and $ARGUMENTSX");
	});

	it("adds the arguments after a template without placeholders, so none are lost", () => {
		expect(expandTemplate("Summarise the diff.", "focus on tests")).toBe("Summarise the diff.\n\nfocus on tests");
		expect(expandTemplate("Summarise the diff.", "")).toBe("Summarise the diff.");
	});

	it("splits arguments at blanks, keeping quoted words together", () => {
		expect(splitArguments(`  one "two words" 'three  more' four  `)).toEqual(["one", "two words", "three  more", "four"]);
		expect(splitArguments("")).toEqual([]);
	});
});

describe("templatePrompt", () => {
	it("reads the template again, without its front matter", async () => {
		const root = projectTree({ "p/fix.md": "---\ndescription: Fix\n---\nFix $1.\r\nThen test.\r\n" });
		const [fix] = (await loadPromptTemplates([join(root, "p")])).templates;
		expect(await templatePrompt(fix!, "issue-12")).toBe("Fix issue-12.\nThen test.");
	});
});
