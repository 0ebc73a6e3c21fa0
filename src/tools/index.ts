// Public entry of the built-in coding tools.
export { createAskUserTool, NOBODY_TO_ASK, type AskUserDetails, type AskUserInput } from "./ask-user.js";
export { createBashKillTool, createBashOutputTool } from "./background-shell-tools.js";
export { BackgroundShells, type BackgroundShellsOptions } from "./background-shells.js";
export { BashToolError, createBashTool, createUserCommandRunner, type BashToolDetails, type BashToolInput } from "./bash.js";
export {
	BUILTIN_TOOLS,
	createBuiltinTools,
	createCodingTools,
	type BuiltinTool,
	type BuiltinToolSet,
	type ToolContext,
	type ToolFactory,
} from "./builtin-tools.js";
export { createEditTool, prepareEditArguments, type EditToolInput } from "./edit.js";
export { withFileMutationQueue } from "./file-mutation-queue.js";
export { createFindTool, type FindToolInput } from "./find.js";
export { MAX_GREP_FILE_BYTES, createGrepTool, type GrepToolInput, type GrepToolOptions } from "./grep.js";
export { createLsTool, type LsToolInput } from "./ls.js";
export { createLspTool, type LanguageServerQueries, type LspToolInput } from "./lsp.js";
export { killAllBashProcesses, sessionProcessGroups } from "./run-command.js";
export { createReadTool, type ReadToolInput } from "./read.js";
export type { TextFileAccess } from "./text-files.js";
export { createTodoWriteTool, type TodoListPort, type TodoWriteInput } from "./todo-write.js";
export { createWriteTool, type WriteToolInput } from "./write.js";
export { createWebFetchTool, type WebFetchToolInput } from "./web-fetch.js";
export { createWebSearchTool, type WebSearchToolInput } from "./web-search.js";
export { isPrivateAddress, type WebSettings } from "./web-address.js";
export { BUILTIN_TOOL_NAMES } from "./builtin-tool-names.js";
export { MAX_ROWS as MAX_SUBAGENT_ROWS, createTaskTool, type AgentListing, type SubagentCallRow, type SubagentPort, type TaskDetails, type TaskToolInput } from "./task.js";
