// Rule syntax and the patterns rules use, and the rules suggested to the user.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CallFacts, PolicyContext } from "../../../src/plugs/policy/call-facts.js";
import { compilePathPattern, matchesPath } from "../../../src/plugs/policy/path-glob.js";
import { exactRules, parseRule, sessionRules } from "../../../src/plugs/policy/rules.js";
import { parseShell } from "../../../src/plugs/policy/shell-parse.js";

const home = "/home/ada";
const cwd = "/work/project";
const ctx: PolicyContext = { cwd, home, workTree: cwd, realWorkTree: cwd };

describe("parseRule", () => {
	it("reads a tool name, with or without a pattern", () => {
		const bare = parseRule("bash", "--allow", home);
		expect(bare).toMatchObject({ text: "bash", source: "--allow" });
		expect(bare.pattern).toBeUndefined();
		expect(parseRule(" write(!.env) ", "--allow", home).pattern).toMatchObject({ negated: true });
		expect(parseRule("mcp__github__*", "--allow", home).tool.test("mcp__github__create_issue")).toBe(true);
	});

	it("refuses what is not a rule, saying how to write one", () => {
		for (const bad of ["bash(", "bash()", "(ls)", "two words", "bash(ls) extra"]) {
			expect(() => parseRule(bad, "--deny", home), bad).toThrow(`Invalid rule "${bad}" (--deny)`);
		}
		expect(() => parseRule("bash()", "--deny", home)).toThrow("an empty pattern. Write a tool name, optionally followed by a pattern in parentheses");
	});
});

describe("file patterns", () => {
	const matches = (pattern: string, path: string) => matchesPath(compilePathPattern(pattern, home), path, cwd);

	it("a name without a slash matches that file anywhere", () => {
		expect(matches(".env", join(cwd, ".env"))).toBe(true);
		expect(matches(".env", join(cwd, "config/.env"))).toBe(true);
		expect(matches("*.{ts,tsx}", join(cwd, "src/App.tsx"))).toBe(true);
		expect(matches("*.ts", join(cwd, "src/a.js"))).toBe(false);
	});

	it("a pattern with a slash is anchored at the working folder; ** crosses folders, * does not", () => {
		expect(matches("src/**", join(cwd, "src/a/b/c.ts"))).toBe(true);
		expect(matches("src/*", join(cwd, "src/a/b.ts"))).toBe(false);
		expect(matches("src/**/*.test.ts", join(cwd, "src/x.test.ts"))).toBe(true);
		expect(matches("./.env", join(cwd, "config/.env"))).toBe(false);
		expect(matches("src/", join(cwd, "src/a.ts"))).toBe(true);
		expect(matches("src/**", "/elsewhere/src/a.ts")).toBe(false);
	});

	it("an absolute or ~ pattern matches absolute paths", () => {
		expect(matches("/tmp/**", "/tmp/x/y")).toBe(true);
		expect(matches("~/.ssh/**", "/home/ada/.ssh/id_ed25519")).toBe(true);
		expect(matches("~/.ssh/**", join(cwd, ".ssh/x"))).toBe(false);
	});

	it("a backslash makes a glob character literal", () => {
		expect(matches("a\\*b.txt", join(cwd, "a*b.txt"))).toBe(true);
		expect(matches("a\\*b.txt", join(cwd, "axxb.txt"))).toBe(false);
	});
});

async function shellFacts(command: string): Promise<CallFacts> {
	const shell = await parseShell(command, home);
	const shellWrites = shell.redirects.filter((redirect) => redirect.writes).map((redirect) => ({ given: redirect.target.text, absolute: join(cwd, redirect.target.text), real: join(cwd, redirect.target.text) }));
	return { tool: "bash", readOnly: false, shell, shellWrites, reads: [], changes: [] };
}

describe("suggested rules", () => {
	it("print mode suggests exactly each command and file; a star in a command is escaped", async () => {
		expect(exactRules(await shellFacts("npm test > out.log && ls *.md"), ctx)).toEqual(["bash(npm test)", "bash(ls \\*.md)", "write(./out.log)"]);
	});

	it("'allow for this session' offers each command's prefix, exact where its second word is an option or a path", async () => {
		expect(sessionRules(await shellFacts("npm test -- --watch; git status; rm -rf build; ls; cat src/a.ts"), ctx)).toEqual([
			"bash(npm test *)",
			"bash(git status *)",
			"bash(rm -rf build)",
			"bash(ls *)",
			"bash(cat src/a.ts)",
		]);
	});

	it("a suggested rule allows the call it was made for", async () => {
		const facts = await shellFacts("ls *.md");
		const rule = parseRule(exactRules(facts, ctx)[0], "test", home);
		expect(rule.pattern?.command.test("ls *.md")).toBe(true);
		expect(rule.pattern?.command.test("ls anything.md")).toBe(false);
	});
});
