// Door of the session store: the JSON Lines file, its entries and tree, its lock, and the list of sessions on disk.
export { missingResult, repairConversation, unansweredToolCalls } from "./conversation-repair.js";
export { sessionChain } from "./session-chain.js";
export {
	SessionFileError,
	isSessionId,
	type CompactionEntry,
	type EntryPayload,
	type PlanEntry,
	type SessionEntry,
	type SessionHeader,
	type TodoEntry,
} from "./session-entries.js";
export { listAllSessions, listSessions, newestSessionFile, readSessionInfo, type SessionInfo } from "./session-list.js";
export { SessionInUseError, describeHolder } from "./session-lock.js";
export { cwdFolderName, sessionDirFor, sessionFileText, sessionIdFromFileName, sessionsRoot, subagentSessionsDir } from "./session-paths.js";
export { loadSessionFile } from "./session-reader.js";
export { resolveSessionArgument } from "./session-list.js";
export { SessionStore } from "./session-store.js";
export { promptPoints, promptText, sessionTree, type PromptPoint, type SessionTree } from "./session-tree.js";
export { addTotals, addUsage, subagentLink, sumEntryUsage, sumUsage, zeroUsage, type SubagentLink, type UsageTotals } from "./usage-totals.js";
export {
	MAX_TODO_ITEMS,
	TODO_HEADING,
	TODO_STATUSES,
	latestTodos,
	todoListProblem,
	todoListText,
	type TodoItem,
	type TodoStatus,
} from "./todo-list.js";
