// Public entry of the built-in coding tools.
import type { ToolDefinition } from "../core/index.js";
import { createBashTool } from "./bash.js";
import { createEditTool } from "./edit.js";
import { createReadTool } from "./read.js";
import { createWriteTool } from "./write.js";

export { atomicWriteFile } from "./atomic-write.js";
export { type BashToolDetails, BashToolError, type BashToolInput, type BashToolOptions, bashSchema, createBashTool } from "./bash.js";
export { createEditTool, type EditToolDetails, type EditToolInput, editSchema, prepareEditArguments } from "./edit.js";
export { withFileMutationQueue } from "./file-mutation-queue.js";
export { removeStaleOutputFolders } from "./output-folder.js";
export { killAllBashProcesses } from "./process-groups.js";
export { createReadTool, type ReadToolDetails, type ReadToolInput, readSchema } from "./read.js";
export {
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
	formatSize,
	type TruncationLimits,
	type TruncationResult,
	truncateHead,
	truncateTail,
} from "./truncate.js";
export { createWriteTool, type WriteToolDetails, type WriteToolInput, writeSchema } from "./write.js";

/** Makes a tool working in a directory. */
export type ToolFactory = (cwd: string) => ToolDefinition<any>;

/**
 * The built-in tools, in the order the model gets them. A new tool is its file (a factory returning its
 * definition, presentation included) and one line here: the CLI's --tools, the system prompt, the screen's
 * rows and compaction's file lists all take it from its definition.
 */
export const BUILTIN_TOOLS: readonly ToolFactory[] = [
	createReadTool,
	createBashTool,
	createEditTool,
	createWriteTool,
];

/** The definitions of `factories` (default: the built-in tools) for a working directory. */
export function createCodingTools(cwd: string, factories: readonly ToolFactory[] = BUILTIN_TOOLS): ToolDefinition<any>[] {
	return factories.map((create) => create(cwd));
}
