// Rules in Claude Code's spelling (`Bash(npm test:*)`, `Read(./.env)`): its tool names are capitalized and its
// command prefix ends with ":*". loom has no tool of those names, so such a rule taken as written would match
// nothing, and a deny rule brought over from Claude Code would deny nothing. It is refused with loom's spelling.

/** Claude Code's names of the tools loom has, with loom's names. */
export const CLAUDE_CODE_TOOLS: ReadonlyMap<string, string> = new Map([
	["Bash", "bash"],
	["Read", "read"],
	["Edit", "edit"],
	["MultiEdit", "edit"],
	["Write", "write"],
	["Grep", "grep"],
	["Glob", "find"],
	["LS", "ls"],
]);

/** loom's spelling of a rule written for Claude Code; undefined when `tool` is none of Claude Code's names. */
export function loomSpelling(tool: string, pattern: string | undefined): string | undefined {
	const name = CLAUDE_CODE_TOOLS.get(tool);
	if (name === undefined) return undefined;
	if (pattern === undefined) return name;
	return `${name}(${name === "bash" && pattern.endsWith(":*") ? `${pattern.slice(0, -2)} *` : pattern})`;
}

/** Why such a rule is refused, and what to write instead. */
export function claudeCodeRuleProblem(spelling: string): string {
	const names = [...new Set(CLAUDE_CODE_TOOLS.values())];
	const tools = `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
	return `it is written for Claude Code (loom's tools are ${tools}, and a command prefix ends with " *", not ":*"): write ${spelling}.`;
}
