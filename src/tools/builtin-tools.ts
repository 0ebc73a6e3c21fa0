// The built-in tools as one table, and the definitions a session makes from it for a working directory.
import type { ConfineSpawn, ToolDefinition, ProcessGroupSet, SessionUi } from "../core/index.js";
import { nonInteractiveUi } from "../core/index.js";
import { createAskUserTool } from "./ask-user.js";
import { createBashKillTool, createBashOutputTool } from "./background-shell-tools.js";
import { BackgroundShells } from "./background-shells.js";
import { createBashTool } from "./bash.js";
import { createEditTool } from "./edit.js";
import { createFindTool } from "./find.js";
import { createGrepTool } from "./grep.js";
import { createLsTool } from "./ls.js";
import { createLspTool, type LanguageServerQueries } from "./lsp.js";
import { createReadTool } from "./read.js";
import { BUILTIN_TOOL_NAMES, type BuiltinToolName } from "./builtin-tool-names.js";
import type { TextFileAccess } from "./text-files.js";
import { createTodoWriteTool, type TodoListPort } from "./todo-write.js";
import { createWriteTool } from "./write.js";
import type { WebSettings } from "./web-address.js";
import { createWebFetchTool } from "./web-fetch.js";
import { createWebSearchTool } from "./web-search.js";

/** What a session gives the tools it makes, besides their directory; each takes what concerns it. */
export interface ToolContext {
	/** Where commands' process groups are tracked, so disposing the session ends them. */
	processGroups?: ProcessGroupSet;
	/** Masks secrets in output a tool shows before it returns (bash's live output); see BashToolOptions.redact. */
	redact?: (text: string, live: boolean) => string;
	/** read, edit and write get and put text files' content through this (an editor's buffers) instead of the disk. */
	files?: TextFileAccess;
	/** Starts the processes a tool runs inside the session's sandbox. */
	confine?: ConfineSpawn;
	/** The session's background shells, which bash starts and bash_output and bash_kill reach (default: a set of their own). */
	backgroundShells?: BackgroundShells;
	/** How ask_user asks the user: the session's ui as it is when the call runs (default: nobody to ask). */
	ui?: () => SessionUi;
	/** web_fetch's settings (which private hosts it may reach, its timeout). */
	web?: WebSettings;
	/** Why web_fetch may not reach a host (the sandbox's network allowlist); undefined: it may. */
	refuseHost?: (host: string) => string | undefined;
	/** Where todo_write puts the list (the session's); without it the tool only checks the list. */
	todos?: TodoListPort;
	/** What the lsp tool asks: the session's language servers. */
	languageServers?: LanguageServerQueries;
}

/** Makes a tool working in a directory. */
export type ToolFactory = (cwd: string, context?: ToolContext) => ToolDefinition<any>;

/** A built-in tool: how it is made, and whether a session without --tools enables it. */
export interface BuiltinTool {
	/** What its definition is named. */
	name: string;
	create: ToolFactory;
	/** False: known (--tools may name it, a resumed conversation's calls of it are understood) but off unless asked for. */
	byDefault: boolean;
}

/** How each built-in tool is made: the compiler holds this to the names in builtin-tool-names.ts. */
const FACTORIES: Readonly<Record<BuiltinToolName, ToolFactory>> = {
	read: createReadTool,
	bash: createBashTool,
	bash_output: (_cwd, context) => createBashOutputTool(shellsOf(context)),
	bash_kill: (_cwd, context) => createBashKillTool(shellsOf(context)),
	edit: createEditTool,
	write: createWriteTool,
	// Inside a sandbox no process of a tool may start outside it: grep walks in Node there.
	grep: (cwd, context) => createGrepTool(cwd, context?.confine ? { ripgrep: false } : {}),
	find: createFindTool,
	ls: createLsTool,
	ask_user: (_cwd, context) => createAskUserTool(context?.ui ?? (() => nonInteractiveUi())),
	web_fetch: createWebFetchTool,
	web_search: createWebSearchTool,
	todo_write: (cwd, context) => createTodoWriteTool(cwd, context?.todos),
	lsp: createLspTool,
};

/** createBuiltinTools gives bash and these one set; a tool made alone gets a set of its own (and finds no shell). */
function shellsOf(context: ToolContext | undefined): BackgroundShells {
	return context?.backgroundShells ?? new BackgroundShells();
}

/**
 * The built-in tools, in the order the model gets them. A new tool is its file (a factory returning its
 * definition, presentation included), its name in BUILTIN_TOOL_NAMES and its factory above: the CLI's --tools, the
 * system prompt, the screen's rows and compaction's file lists all take it from its definition. The search tools
 * are off by default: read, bash, edit and write are the set a session starts with; --tools read,grep,find,ls makes
 * an explorer.
 */
export const BUILTIN_TOOLS: readonly BuiltinTool[] = BUILTIN_TOOL_NAMES.map(({ name, byDefault }) => ({ name, create: FACTORIES[name], byDefault }));

export interface BuiltinToolSet {
	/** Every tool of the list, in its order. */
	known: ToolDefinition<any>[];
	/** Those enabled without --tools. */
	defaults: ToolDefinition<any>[];
}

/** The definitions of `tools` (default: the built-in tools) for a working directory. */
export function createBuiltinTools(cwd: string, tools: readonly BuiltinTool[] = BUILTIN_TOOLS, context: ToolContext = {}): BuiltinToolSet {
	// bash and bash_output must share one set of background shells.
	const shared: ToolContext = { ...context, backgroundShells: context.backgroundShells ?? new BackgroundShells() };
	const made = tools.map((tool) => ({ definition: tool.create(cwd, shared), byDefault: tool.byDefault }));
	return { known: made.map((tool) => tool.definition), defaults: made.filter((tool) => tool.byDefault).map((tool) => tool.definition) };
}

/** The tools a session enables by default, for a working directory. */
export function createCodingTools(cwd: string): ToolDefinition<any>[] {
	return createBuiltinTools(cwd).defaults;
}
