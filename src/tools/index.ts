// Public entry of the built-in coding tools.
export { type BashToolDetails, BashToolError, type BashToolInput, createBashTool } from "./bash.js";
export { createUserCommandRunner } from "./user-command.js";
export { createEditTool, type EditToolInput, prepareEditArguments } from "./edit.js";
export { withFileMutationQueue } from "./file-mutation-queue.js";
export { createFindTool, type FindToolInput } from "./find.js";
export { createGrepTool, type GrepToolInput, MAX_GREP_FILE_BYTES } from "./grep.js";
export { createLsTool, type LsToolInput } from "./ls.js";
export { killAllBashProcesses, sessionProcessGroups } from "./process-groups.js";
export { createReadTool, type ReadToolInput } from "./read.js";
export { createWriteTool, type WriteToolInput } from "./write.js";
export type { TextFileAccess } from "./text-files.js";
export { BUILTIN_TOOLS, type BuiltinTool, type BuiltinToolSet, type ToolContext, type ToolFactory, createBuiltinTools, createCodingTools } from "./builtin-tools.js";
