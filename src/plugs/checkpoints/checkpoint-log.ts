// What a session's checkpoints are: one JSON Lines file per session in the project's checkpoint folder
// (sessions/<session id>.jsonl). Its first line names the session's file, so pruning can tell when the session
// is gone; every later line adds to one run's record (fields merge in order, pre-images accumulate), or names
// another process that went on writing it (a resumed session), so pruning leaves it alone while that one runs.
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { readCheckedText } from "../../core/index.js";
import type { SkippedFile } from "./changed-files.js";

/** A file as it was before a write or edit changed it (the fallback where the tree is not snapshotted). */
export interface Preimage {
	/** Relative to the work tree. */
	path: string;
	/** False: the call created the file, so restoring deletes it. */
	existed: boolean;
	/** Where its bytes are kept, relative to the project's checkpoint folder. */
	file?: string;
	mode?: number;
	/** Content hash (sha256, hex) of the bytes kept. */
	hash?: string;
	/** For a file that did not exist: the deepest folder above it that did ("" for the work tree). */
	base?: string;
	/** The file was over the size limit: not kept, so not restorable. */
	skipped?: boolean;
}

/** One prompt's checkpoint: the work tree before its run (and after), or the pre-images of the files it wrote. */
export interface RunRecord {
	run: string;
	/** ISO 8601, when the run started. */
	at: string;
	/** The session entry of the prompt that started the run. */
	prompt?: string;
	mode: "tree" | "files";
	/** Tree mode: the work tree before the run. */
	before?: string;
	/** Tree mode: the work tree when the run ended. */
	after?: string;
	/**
	 * Tree mode: the blob (in the shadow repository) listing where `before` did not look: ignored files, wholly
	 * ignored folders and nested repositories (folders end in "/"). Without it a restore deletes nothing that is
	 * missing from `before`, since its absence there proves nothing.
	 */
	outside?: string;
	/** Files not recorded in `before` (over the size limit). */
	skipped?: SkippedFile[];
	afterSkipped?: SkippedFile[];
	/** Files mode: the first pre-image of each file a call changed. */
	preimages?: Preimage[];
	/** Files mode: each changed file's content hash when the run ended (null: it did not exist). */
	afterHashes?: Record<string, string | null>;
	/** No call that may change files ran: nothing was snapshotted (neither `before` nor `after`). */
	unchanged?: boolean;
	/** A snapshot taken just before a rewind restored files (kept, so a restore can itself be looked into). */
	rewind?: boolean;
}

export interface LogHeader {
	session: string;
	/** The session file; null for --no-session (its checkpoints go once its process is gone). */
	file: string | null;
	/** The session file this session was forked from. */
	parentFile?: string;
	pid: number;
	host: string;
	created: string;
}

/** A process that writes a log. */
export interface LogWriterProcess {
	pid: number;
	host: string;
}

export interface SessionLog {
	header: LogHeader;
	/** Every process that wrote the log: the one that started it first. */
	writers: LogWriterProcess[];
	/** Runs in the order they started. */
	runs: RunRecord[];
}

/** One line of a log after the header: fields of a run's record, or one more pre-image. */
export type LogUpdate = Partial<Omit<RunRecord, "preimages">> & { run: string; preimage?: Preimage };

/** A header is far shorter than this (two paths and a few fields). */
const HEADER_BYTES = 64 * 1024;
/** A log larger than this is not read (a session of thousands of prompts stays far below it). */
const MAX_LOG_BYTES = 64 * 1024 * 1024;

export function logPath(projectDir: string, sessionId: string): string {
	return join(projectDir, "sessions", `${sessionId}.jsonl`);
}

/** Reads a session's log; undefined when there is none (or it is unreadable: its checkpoints are then unknown). */
export function readLog(file: string): SessionLog | undefined {
	let text: string;
	try {
		text = readCheckedText(file, { maxBytes: MAX_LOG_BYTES });
	} catch {
		return undefined;
	}
	const lines = text.split("\n").filter((line) => line.trim() !== "");
	const header = parse(lines[0]) as LogHeader | undefined;
	if (!header || typeof header.session !== "string") return undefined;
	const runs = new Map<string, RunRecord>();
	const writers: LogWriterProcess[] = [{ pid: header.pid, host: header.host }];
	for (const line of lines.slice(1)) {
		const update = parse(line) as (LogUpdate & Partial<LogWriterProcess>) | undefined;
		if (update && typeof update.pid === "number" && typeof update.host === "string") writers.push({ pid: update.pid, host: update.host });
		if (!update || typeof update.run !== "string") continue;
		const { preimage, ...fields } = update;
		const record = runs.get(update.run) ?? ({ run: update.run, at: "", mode: "tree" } as RunRecord);
		Object.assign(record, fields);
		if (preimage) record.preimages = [...(record.preimages ?? []), preimage];
		runs.set(update.run, record);
	}
	return { header, writers, runs: [...runs.values()] };
}

/** Appends to a session's log, writing its header first when the log is new, and naming this process when it is not. */
export class LogWriter {
	/** This process is named in the log: it wrote the header, or a line naming it. */
	private named = false;

	constructor(
		readonly file: string,
		private readonly header: Omit<LogHeader, "pid" | "host" | "created">,
	) {}

	append(update: LogUpdate): void {
		let text = `${JSON.stringify(update)}\n`;
		const writer: LogWriterProcess = { pid: process.pid, host: hostname() };
		// Checked at every append: a log removed meanwhile starts again with its header.
		if (!existsSync(this.file)) {
			mkdirSync(dirname(this.file), { recursive: true });
			const header: LogHeader = { ...this.header, ...writer, created: new Date().toISOString() };
			text = `${JSON.stringify(header)}\n${text}`;
		} else if (!this.named && !startedBy(this.file, writer)) {
			text = `${JSON.stringify(writer)}\n${text}`;
		}
		this.named = true;
		appendFileSync(this.file, text);
	}
}

/** The log's header names `writer` (read from its first bytes only). */
function startedBy(file: string, writer: LogWriterProcess): boolean {
	let fd: number | undefined;
	try {
		fd = openSync(file, "r");
		const buffer = Buffer.alloc(HEADER_BYTES);
		const length = readSync(fd, buffer, 0, HEADER_BYTES, 0);
		const header = parse(buffer.subarray(0, length).toString("utf8").split("\n")[0]) as Partial<LogHeader> | undefined;
		return header?.pid === writer.pid && header.host === writer.host;
	} catch {
		return false;
	} finally {
		if (fd !== undefined) closeSync(fd);
	}
}

function parse(line: string | undefined): unknown {
	if (line === undefined) return undefined;
	try {
		return JSON.parse(line);
	} catch {
		return undefined;
	}
}
