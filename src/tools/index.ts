// Public entry of the built-in coding tools.
import type { AgentTool } from "../core/index.js";
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

/** The four coding tools, in the order read, bash, edit, write. */
export function createCodingTools(cwd: string): AgentTool<any>[] {
	return [createReadTool(cwd), createBashTool(cwd), createEditTool(cwd), createWriteTool(cwd)];
}
