// Reading hooks in Claude Code's schema from every settings file, and a loom call as Claude Code's hooks see it.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claudeCall, loomArgs } from "../../../src/plugs/hooks/claude-tool-input.js";
import { hookMatches, hooksOf, readSettingsHooks } from "../../../src/plugs/hooks/hook-settings.js";
import { writeFileAt } from "../../support/project-tree.js";
import { workspace } from "../../support/temp-dir.js";

const source = { file: "/s.json", scope: "user" as const };

describe("hook settings", () => {
	it("reads every source in order, user files first, and only the hooks of Claude Code's files", () => {
		const ws = workspace();
		const claudeHome = join(ws.home, "claude-home");
		const hook = (command: string) => ({ hooks: { Stop: [{ hooks: [{ type: "command", command }] }] } });
		writeFileAt(join(ws.home, "settings.json"), JSON.stringify(hook("loom-user")));
		writeFileAt(join(claudeHome, "settings.json"), JSON.stringify(hook("claude-user")));
		writeFileAt(join(ws.cwd, ".loom", "settings.json"), JSON.stringify(hook("loom-project")));
		writeFileAt(join(ws.cwd, ".claude", "settings.json"), JSON.stringify({ permissions: { allow: ["Bash(ls:*)"] }, ...hook("claude-project") }));
		writeFileAt(join(ws.cwd, ".claude", "settings.local.json"), "{ not json");
		const { hooks, warnings } = readSettingsHooks({ home: ws.home, cwd: ws.cwd, claudeHome });
		expect(hooks.map((h) => [h.command, h.source.scope, h.timeoutS])).toEqual([
			["loom-user", "user", 60],
			["claude-user", "user", 60],
			["loom-project", "project", 60],
			["claude-project", "project", 60],
		]);
		expect(warnings).toEqual([expect.stringContaining(".claude/settings.local.json: its hooks were not read")]);
	});

	it("skips what loom cannot run, saying where, and keeps the rest", () => {
		const warnings: string[] = [];
		const hooks = hooksOf(
			{
				hooks: {
					PreToolUse: [
						{ matcher: "Bash", hooks: [{ type: "command", command: "a", timeout: 5 }, { type: "prompt", prompt: "x" }] },
						{ matcher: "(", hooks: [{ type: "command", command: "b" }] },
					],
					OnSave: [],
				},
			},
			source,
			warnings,
		);
		expect(hooks).toEqual([{ event: "PreToolUse", matcher: "Bash", command: "a", timeoutS: 5, source }]);
		expect(warnings).toEqual([
			expect.stringContaining("hooks.PreToolUse[0].hooks[1] is not"),
			expect.stringContaining("hooks.PreToolUse[1].matcher \"(\" is not a valid regular expression"),
			expect.stringContaining("hooks.OnSave is not an event loom knows"),
		]);
	});

	it("matches the whole name against Claude Code's name or loom's; no matcher, '' or '*' match everything", () => {
		const hook = (matcher?: string) => ({ event: "PreToolUse" as const, command: "x", timeoutS: 1, source, ...(matcher !== undefined ? { matcher } : {}) });
		expect(hookMatches(hook("Edit|Write"), ["Write", "write"])).toBe(true);
		expect(hookMatches(hook("Edit"), ["Read", "read"])).toBe(false);
		expect(hookMatches(hook("mcp__github__.*"), ["mcp__github__create_issue"])).toBe(true);
		expect(hookMatches(hook("Bas"), ["Bash", "bash"])).toBe(false);
		for (const any of [undefined, "", "*"]) expect(hookMatches(hook(any), ["Glob"])).toBe(true);
	});
});

describe("Claude Code's view of a call", () => {
	it("names loom's tools as Claude Code does, with its field names and absolute paths", () => {
		expect(claudeCall("bash", { command: "ls", timeout: 2 }, "/p")).toEqual({ toolName: "Bash", names: ["Bash", "bash"], toolInput: { command: "ls", timeout: 2000 } });
		expect(claudeCall("edit", { path: "a.ts", edits: [{ oldText: "x", newText: "y" }] }, "/p").toolInput).toEqual({ file_path: "/p/a.ts", old_string: "x", new_string: "y" });
		const multi = claudeCall("edit", { path: "/q/a.ts", edits: [{ oldText: "x", newText: "y" }, { oldText: "u", newText: "v" }] }, "/p");
		expect(multi.toolName).toBe("MultiEdit");
		expect(multi.names).toContain("Edit");
		expect(claudeCall("find", { pattern: "*.ts" }, "/p").toolName).toBe("Glob");
		expect(claudeCall("ls", {}, "/p")).toMatchObject({ toolName: "LS", toolInput: { path: "/p" } });
		expect(claudeCall("read", { path: "x" }, "/p")).toMatchObject({ toolName: "Read", toolInput: { file_path: "/p/x" } });
		expect(claudeCall("mcp__github__create_issue", { title: "t" }, "/p")).toEqual({ toolName: "mcp__github__create_issue", names: ["mcp__github__create_issue"], toolInput: { title: "t" } });
	});

	it("turns a hook's updatedInput, laid over what it was sent, back into loom's arguments", () => {
		const bash = claudeCall("bash", { command: "npm test", timeout: 5 }, "/p");
		expect(loomArgs(bash, { command: "npm test -- --bail" }, { command: "npm test", timeout: 5 })).toEqual({ command: "npm test -- --bail", timeout: 5 });
		const edit = claudeCall("edit", { path: "a.ts", edits: [{ oldText: "x", newText: "y" }] }, "/p");
		expect(loomArgs(edit, { new_string: "z" }, {})).toEqual({ path: "/p/a.ts", edits: [{ oldText: "x", newText: "z" }] });
		const write = claudeCall("write", { path: "a.ts", content: "1" }, "/p");
		expect(loomArgs(write, { content: "2" }, {})).toEqual({ path: "/p/a.ts", content: "2" });
	});
});
