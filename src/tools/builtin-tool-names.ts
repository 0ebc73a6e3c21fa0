// The built-in tools by name, in the order the model gets them, and which a session without --tools enables. No tool
// code is loaded with it, so `loom --help` lists the tools from here without loading them (builtin-tools.ts makes
// each from its name).

export const BUILTIN_TOOL_NAMES = [
	{ name: "read", byDefault: true },
	{ name: "bash", byDefault: true },
	{ name: "edit", byDefault: true },
	{ name: "write", byDefault: true },
	{ name: "grep", byDefault: false },
	{ name: "find", byDefault: false },
	{ name: "ls", byDefault: false },
	{ name: "bash_output", byDefault: true },
	{ name: "bash_kill", byDefault: true },
	{ name: "ask_user", byDefault: true },
	{ name: "todo_write", byDefault: true },
	{ name: "web_fetch", byDefault: false },
	{ name: "web_search", byDefault: false },
	{ name: "lsp", byDefault: false },
] as const;

export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number]["name"];
