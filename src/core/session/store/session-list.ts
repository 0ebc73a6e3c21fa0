// Lists sessions fast: each file's head (header, first prompt) and tail (message count) only, never the whole file.
// And finds the session file a user means: a path, or a prefix of a session id.
import { closeSync, existsSync, fstatSync, openSync, statSync } from "node:fs";
import { basename, isAbsolute, join, resolve, sep } from "node:path";
import { Allow, parse as parsePartialJson } from "partial-json";
import { readAt, directoryNames } from "../../lib/index.js";
import { textFromContent } from "../../ai/index.js";
import { type SessionHeader, SessionFileError, parseHeader } from "./session-entries.js";
import { cwdFolderName, sessionDirFor, sessionIdFromFileName, sessionsRoot, subagentSessionsDir } from "./session-paths.js";

export interface SessionInfo {
	file: string;
	id: string;
	cwd: string;
	created: Date;
	/** Last write: the session's last activity. */
	modified: Date;
	/** The first user message's text, whitespace collapsed, cut to PREVIEW_CHARS. Empty if none yet. */
	firstPrompt: string;
	messageCount: number;
	/** The id of the session this one was forked from (its header's parentSession), when it is a fork. */
	forkOf?: string;
	/** How many subagents' session files it has (see subagentSessionsDir); absent: none. */
	subagents?: number;
}

const HEAD_BYTES = 16 * 1024;
const TAIL_BYTES = 16 * 1024;
/** How far back to look for the start of the last line before counting the slow way. */
const MAX_TAIL_SCAN = 4 * 1024 * 1024;
const PREVIEW_CHARS = 200;
// Every entry line we write starts like this; `n` is the running message count (see EntryBase.n).
const ENTRY_PREFIX = /^\{"type":"[a-z_]+","id":"[^"]*","parentId":(?:null|"[^"]*"),"timestamp":"[^"]*","n":(\d+)[,}]/;

/** Sessions of `cwd`, newest activity first. Files that are not loom sessions, or belong to another cwd, are left out. */
export function listSessions(home: string, cwd: string): SessionInfo[] {
	return sortNewestFirst(listDir(sessionDirFor(home, cwd)).filter((info) => info.cwd === cwd));
}

/** Sessions of every directory, newest activity first. */
export function listAllSessions(home: string): SessionInfo[] {
	const root = sessionsRoot(home);
	return sortNewestFirst(directoryNames(root).flatMap((name) => listDir(join(root, name))));
}

/** Reads one file's head and tail; undefined when it is not a loom session. */
export function readSessionInfo(file: string): SessionInfo | undefined {
	let fd: number;
	try {
		fd = openSync(file, "r");
	} catch {
		return undefined;
	}
	try {
		const stat = fstatSync(fd);
		if (!stat.isFile()) return undefined;
		const head = readAt(fd, 0, Math.min(HEAD_BYTES, stat.size)).toString("utf8");
		const headerEnd = head.indexOf("\n");
		let header: SessionHeader;
		try {
			header = parseHeader(headerEnd === -1 ? head : head.slice(0, headerEnd), file);
		} catch {
			return undefined;
		}
		return {
			file,
			id: header.id,
			cwd: header.cwd,
			created: new Date(header.created),
			modified: stat.mtime,
			firstPrompt: headerEnd === -1 ? "" : firstPromptIn(head.slice(headerEnd + 1)),
			messageCount: messageCountFromTail(fd, stat.size),
			...(typeof header.parentSession === "string" ? { forkOf: sessionIdFromFileName(header.parentSession) ?? basename(header.parentSession) } : {}),
			...subagentCount(file),
		};
	} finally {
		closeSync(fd);
	}
}

function subagentCount(file: string): { subagents?: number } {
	const count = directoryNames(subagentSessionsDir(file)).filter((name) => name.endsWith(".jsonl")).length;
	return count > 0 ? { subagents: count } : {};
}

function listDir(dir: string): SessionInfo[] {
	const infos: SessionInfo[] = [];
	for (const name of directoryNames(dir)) {
		if (!name.endsWith(".jsonl")) continue;
		const info = readSessionInfo(join(dir, name));
		if (info) infos.push(info);
	}
	return infos;
}

function sortNewestFirst(infos: SessionInfo[]): SessionInfo[] {
	return infos.sort((a, b) => b.modified.getTime() - a.modified.getTime() || (a.file < b.file ? 1 : -1));
}

/** The newest session file of `cwd` by last write, found with stat calls only (for --continue). */
export function newestSessionFile(home: string, cwd: string): string | undefined {
	const dir = sessionDirFor(home, cwd);
	const candidates = directoryNames(dir)
		.filter((name) => name.endsWith(".jsonl"))
		.map((name) => {
			const file = join(dir, name);
			try {
				return { file, mtime: statSync(file).mtimeMs };
			} catch {
				return undefined;
			}
		})
		.filter((entry) => entry !== undefined)
		.sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? 1 : -1));
	// The first one that really is a session of this cwd (folder names can collide; stray files can sit there).
	return candidates.find((candidate) => readSessionInfo(candidate.file)?.cwd === cwd)?.file;
}

function firstPromptIn(text: string): string {
	for (const line of text.split("\n")) {
		if (!line.startsWith('{"type":"message"')) continue;
		let entry: any;
		try {
			entry = JSON.parse(line);
		} catch {
			// The head ended inside this line (a long prompt): its beginning is enough for a preview.
			try {
				entry = parsePartialJson(line, Allow.ALL);
			} catch {
				return "";
			}
		}
		if (entry?.message?.role === "user") return preview(typeof entry.message.typed === "string" ? entry.message.typed : entry.message.content);
	}
	return "";
}

function preview(content: unknown): string {
	const text = textFromContent(content, { separator: " ", image: () => "[image]" });
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat;
}

/** Reads `n` from the last complete line; counts message lines the slow way only if that line is huge or foreign. */
function messageCountFromTail(fd: number, size: number): number {
	let end = size;
	let chunk = readAt(fd, Math.max(0, size - TAIL_BYTES), Math.min(TAIL_BYTES, size));
	let chunkStart = size - chunk.length;
	// A last line without its newline is a torn write: the count is the previous line's.
	if (chunk.length > 0 && chunk[chunk.length - 1] !== 0x0a) {
		end = chunkStart + chunk.lastIndexOf(0x0a) + 1;
		if (end === chunkStart) return countMessagesSlowly(fd, size);
	}
	const lastNewline = end - 1;
	for (;;) {
		const searchFrom = lastNewline - 1 - chunkStart;
		const previousNewline = searchFrom >= 0 ? chunk.lastIndexOf(0x0a, searchFrom) : -1;
		if (previousNewline !== -1 || chunkStart === 0) {
			const lineStart = chunkStart + previousNewline + 1;
			if (lineStart === 0) return 0; // only the header
			const match = ENTRY_PREFIX.exec(readAt(fd, lineStart, Math.min(256, end - lineStart)).toString("utf8"));
			return match ? Number(match[1]) : countMessagesSlowly(fd, size);
		}
		if (size - chunkStart >= MAX_TAIL_SCAN) return countMessagesSlowly(fd, size);
		const nextStart = Math.max(0, chunkStart - TAIL_BYTES);
		chunk = Buffer.concat([readAt(fd, nextStart, chunkStart - nextStart), chunk]);
		chunkStart = nextStart;
	}
}

const MESSAGE_LINE = Buffer.from('\n{"type":"message"');

function countMessagesSlowly(fd: number, size: number): number {
	let count = 0;
	let carry = Buffer.alloc(0);
	for (let position = 0; position < size; position += 1 << 20) {
		const data = Buffer.concat([carry, readAt(fd, position, Math.min(1 << 20, size - position))]);
		for (let at = data.indexOf(MESSAGE_LINE); at !== -1; at = data.indexOf(MESSAGE_LINE, at + 1)) count++;
		carry = data.subarray(Math.max(0, data.length - MESSAGE_LINE.length + 1));
	}
	return count;
}

/**
 * The session file a user means (--session, /resume). A path (anything with a separator, ending in .jsonl, or naming an existing file) is taken as is.
 * Otherwise the argument is an id prefix, looked up by file name in the cwd's sessions first, then in all others.
 * `listHint`: how the caller's user lists the sessions (the command line names its flag), said when no id matches.
 */
export function resolveSessionArgument(arg: string, home: string, cwd: string, listHint = "/resume lists this directory's sessions."): string {
	const trimmed = arg.trim();
	if (trimmed === "") throw new SessionFileError("A session is named by a session file path or an id prefix; none was given.");
	const asPath = isAbsolute(trimmed) ? trimmed : resolve(cwd, trimmed);
	if (trimmed.includes("/") || trimmed.includes(sep) || trimmed.endsWith(".jsonl") || existsSync(asPath)) {
		if (!existsSync(asPath)) throw new SessionFileError(`No session file at ${asPath}.`);
		return asPath;
	}
	const root = sessionsRoot(home);
	const own = cwdFolderName(cwd);
	const folders = [own, ...directoryNames(root).filter((name) => name !== own)];
	for (const folder of folders) {
		const matches = directoryNames(join(root, folder)).filter((name) => sessionIdFromFileName(name)?.startsWith(trimmed));
		if (matches.length === 1) return join(root, folder, matches[0]!);
		if (matches.length > 1) {
			const ids = matches.map((name) => `  ${sessionIdFromFileName(name)}`).join("\n");
			throw new SessionFileError(`Session id prefix "${trimmed}" is ambiguous; it matches:\n${ids}\nGive more characters.`);
		}
	}
	throw new SessionFileError(
		`No session with an id starting with "${trimmed}" under ${root}. ${listHint}`,
	);
}
