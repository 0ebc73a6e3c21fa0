// The session file format: one JSON object per line, a header first, then entries (append-only).
import type { AgentMessage } from "../../engine/index.js";
import type { ThinkingLevel } from "../../ai/index.js";
import type { TodoItem } from "./todo-list.js";

export const SESSION_FORMAT_VERSION = 1;

export interface SessionHeader {
	type: "session";
	version: number;
	/** Session id (a UUID); also the end of the file name. */
	id: string;
	/** ISO 8601 creation time. */
	created: string;
	cwd: string;
	/** The session file this one was forked from (`--fork`); its entries up to the fork were copied here. */
	parentSession?: string;
}

interface EntryBase {
	/** Short random id, unique within the session; compaction refers to entries by it. */
	id: string;
	/** The previous entry's id (null for the first), so the history reads as a chain. */
	parentId: string | null;
	/** ISO 8601. */
	timestamp: string;
	/**
	 * Messages in the session up to and including this entry. Written near the start of every line,
	 * so a listing reads the count from the last line instead of reading the whole file.
	 */
	n: number;
}

export interface MessageEntry extends EntryBase {
	type: "message";
	message: AgentMessage;
}

export interface ModelChangeEntry extends EntryBase {
	type: "model_change";
	provider: string;
	modelId: string;
}

export interface ThinkingChangeEntry extends EntryBase {
	type: "thinking_change";
	thinkingLevel: ThinkingLevel;
}

/** Written by compaction: the model's view replaces entries before `firstKeptEntryId` by `summary`. */
export interface CompactionEntry extends EntryBase {
	type: "compaction";
	summary: string;
	firstKeptEntryId: string;
	tokensBefore: number;
}

/**
 * The conversation moved to another point (a rewind, a switch to another branch): its `parentId` is the entry the
 * conversation continues from, and later entries follow this one. Nothing is removed: the branch it left ends at
 * `fromId` and stays in the file, reachable with /tree.
 */
export interface BranchEntry extends EntryBase {
	type: "branch";
	/** The entry the conversation was at before the move (null: it was empty). */
	fromId: string | null;
}

/**
 * The conversation took in text written by others (a fetched page, an untrusted MCP server's result): `source`
 * says what; null when the user cleared the mark (/trust-web). The last one on the conversation's path holds.
 */
export interface TaintEntry extends EntryBase {
	type: "taint";
	source: string | null;
}

/** The todo list from here on (see todo-list.ts): written whole at every change. */
export interface TodoEntry extends EntryBase {
	type: "todo";
	items: TodoItem[];
}

/** A plan the user approved in plan mode, as the model presented it (Markdown). */
export interface PlanEntry extends EntryBase {
	type: "plan";
	plan: string;
}

export type SessionEntry = MessageEntry | ModelChangeEntry | ThinkingChangeEntry | CompactionEntry | BranchEntry | TaintEntry | TodoEntry | PlanEntry;

/** An entry's payload: what a caller supplies; the store adds id, parentId, timestamp and n. */
export type EntryPayload =
	| Pick<MessageEntry, "type" | "message">
	| Pick<ModelChangeEntry, "type" | "provider" | "modelId">
	| Pick<ThinkingChangeEntry, "type" | "thinkingLevel">
	| Pick<CompactionEntry, "type" | "summary" | "firstKeptEntryId" | "tokensBefore">
	| Pick<TaintEntry, "type" | "source">
	| Pick<TodoEntry, "type" | "items">
	| Pick<PlanEntry, "type" | "plan">;

export const ENTRY_TYPES: ReadonlySet<string> = new Set(["message", "model_change", "thinking_change", "compaction", "branch", "taint", "todo", "plan"]);

export class SessionFileError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "SessionFileError";
	}
}

/**
 * Whether `id` can be a session's id: loom writes UUIDs; any id read is checked, because ids become parts of
 * file names (exports, checkpoint logs) and of git refs (checkpoints), where "/" or ".." would lead elsewhere.
 */
export function isSessionId(id: unknown): id is string {
	return typeof id === "string" && /^[A-Za-z0-9_-]{1,128}$/.test(id);
}

/** Parses the first line of a file; throws SessionFileError when it is not a loom session header (its id checked). */
export function parseHeader(line: string, file: string): SessionHeader {
	let value: any;
	try {
		value = JSON.parse(line);
	} catch {
		throw notASession(file, "its first line is not JSON");
	}
	if (!value || typeof value !== "object" || value.type !== "session") {
		throw notASession(file, 'its first line is not a {"type":"session",...} header');
	}
	if (typeof value.id !== "string" || typeof value.cwd !== "string" || typeof value.version !== "number") {
		throw notASession(file, "its header lacks id, cwd or version");
	}
	if (!isSessionId(value.id)) {
		throw notASession(file, `its header's id ${JSON.stringify(value.id).slice(0, 80)} is not a session id (letters, digits, "-" and "_")`);
	}
	if (value.version > SESSION_FORMAT_VERSION) {
		throw new SessionFileError(
			`${file} was written by a newer loom (session format ${value.version}; this loom reads up to ${SESSION_FORMAT_VERSION}). Update loom to open it.`,
		);
	}
	return value as SessionHeader;
}

function notASession(file: string, why: string): SessionFileError {
	return new SessionFileError(`${file} is not a loom session file: ${why}.`);
}
