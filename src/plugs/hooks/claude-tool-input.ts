// A loom tool call as Claude Code's hooks see one: its tool name (Bash, Read, Edit…, `mcp__server__tool` as it
// is) and its input in Claude Code's field names (`file_path`, `old_string`, `new_string`, `command`), and back:
// a hook's `updatedInput` in those names as loom's arguments. A tool Claude Code has no name for is passed under
// loom's name with loom's arguments.
import { isAbsolute, resolve } from "node:path";
import { CLAUDE_CODE_TOOLS } from "../policy/index.js";

type Args = Record<string, any>;

/** Claude Code's names of loom's tools the policy's table has no entry for (tools other branches add). */
const MORE_CLAUDE_NAMES: ReadonlyMap<string, string> = new Map([
	["WebFetch", "web_fetch"],
	["Task", "task"],
]);

export interface ClaudeCall {
	/** The name sent as tool_name. */
	toolName: string;
	/** What a matcher is tested against: Claude Code's name(s) and loom's. */
	names: string[];
	toolInput: Args;
}

function claudeName(loomName: string, args: Args): string | undefined {
	if (loomName === "edit") return Array.isArray(args.edits) && args.edits.length > 1 ? "MultiEdit" : "Edit";
	for (const table of [CLAUDE_CODE_TOOLS, MORE_CLAUDE_NAMES]) {
		for (const [claude, loom] of table) if (loom === loomName && claude !== "MultiEdit") return claude;
	}
	return undefined;
}

/** The call as Claude Code would describe it; file paths absolute, as Claude Code sends them. */
export function claudeCall(loomName: string, input: unknown, cwd: string): ClaudeCall {
	const args: Args = isArgs(input) ? input : {};
	const name = claudeName(loomName, args);
	const abs = (path: unknown) => (typeof path === "string" ? (isAbsolute(path) ? path : resolve(cwd, path)) : path);
	const names = name === undefined ? [loomName] : name === "MultiEdit" ? [name, "Edit", loomName] : [name, loomName];
	const toolName = name ?? loomName;
	switch (name) {
		case "Bash":
			return { toolName, names, toolInput: defined({ command: args.command, timeout: typeof args.timeout === "number" ? args.timeout * 1000 : undefined }) };
		case "Read":
			return { toolName, names, toolInput: defined({ file_path: abs(args.path), offset: args.offset, limit: args.limit }) };
		case "Write":
			return { toolName, names, toolInput: { file_path: abs(args.path), content: args.content } };
		case "Edit": {
			const [edit] = Array.isArray(args.edits) ? args.edits : [];
			return { toolName, names, toolInput: { file_path: abs(args.path), old_string: edit?.oldText, new_string: edit?.newText } };
		}
		case "MultiEdit":
			return {
				toolName,
				names,
				toolInput: { file_path: abs(args.path), edits: (args.edits as Args[]).map((edit) => ({ old_string: edit.oldText, new_string: edit.newText })) },
			};
		case "Grep":
			return {
				toolName,
				names,
				toolInput: defined({ pattern: args.pattern, path: abs(args.path), glob: args.glob, "-i": args.ignoreCase, "-C": args.context, head_limit: args.limit }),
			};
		case "Glob":
			return { toolName, names, toolInput: defined({ pattern: args.pattern, path: abs(args.path) }) };
		case "LS":
			return { toolName, names, toolInput: { path: abs(args.path ?? ".") } };
		default:
			return { toolName, names, toolInput: args };
	}
}

/**
 * loom's arguments for a call whose Claude Code input a hook changed: `updated` is laid over the input the hook
 * was sent (so a hook may give only the fields it changes), then turned back into loom's names.
 */
export function loomArgs(call: ClaudeCall, updated: Args, original: unknown): Args {
	const input: Args = { ...call.toolInput, ...updated };
	const before: Args = isArgs(original) ? original : {};
	switch (call.toolName) {
		case "Bash":
			return defined({ ...before, command: input.command, timeout: typeof input.timeout === "number" ? input.timeout / 1000 : undefined });
		case "Read":
			return defined({ path: input.file_path, offset: input.offset, limit: input.limit });
		case "Write":
			return { path: input.file_path, content: input.content };
		case "Edit":
			return { path: input.file_path, edits: [{ oldText: input.old_string, newText: input.new_string }] };
		case "MultiEdit":
			return { path: input.file_path, edits: (input.edits as Args[]).map((edit) => ({ oldText: edit.old_string, newText: edit.new_string })) };
		case "Grep":
			return defined({ ...before, pattern: input.pattern, path: input.path, glob: input.glob, ignoreCase: input["-i"], context: input["-C"], limit: input.head_limit });
		case "Glob":
			return defined({ ...before, pattern: input.pattern, path: input.path });
		case "LS":
			return { ...before, path: input.path };
		default:
			return input;
	}
}

function isArgs(value: unknown): value is Args {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function defined(value: Args): Args {
	return Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== undefined));
}
