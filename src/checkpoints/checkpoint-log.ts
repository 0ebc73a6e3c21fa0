// What a session's checkpoints are: one JSON Lines file per session in the project's checkpoint folder
// (sessions/<session id>.jsonl). Its first line names the session's file, so pruning can tell when the session
// is gone; every later line adds to one run's record (fields merge in order, pre-images accumulate).
import { appendFileSync, mkdirSync, statSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { readCheckedText } from "../core/checked-read.js";
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
	/** Files not recorded in `before` (over the size limit). */
	skipped?: SkippedFile[];
	afterSkipped?: SkippedFile[];
	/** Files mode: the first pre-image of each file a call changed. */
	preimages?: Preimage[];
	/** Files mode: each changed file's content hash when the run ended (null: it did not exist). */
	afterHashes?: Record<string, string | null>;
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

export interface SessionLog {
	header: LogHeader;
	/** Runs in the order they started. */
	runs: RunRecord[];
}

/** One line of a log after the header: fields of a run's record, or one more pre-image. */
export type LogUpdate = Partial<Omit<RunRecord, "preimages">> & { run: string; preimage?: Preimage };

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
	for (const line of lines.slice(1)) {
		const update = parse(line) as LogUpdate | undefined;
		if (!update || typeof update.run !== "string") continue;
		const { preimage, ...fields } = update;
		const record = runs.get(update.run) ?? ({ run: update.run, at: "", mode: "tree" } as RunRecord);
		Object.assign(record, fields);
		if (preimage) record.preimages = [...(record.preimages ?? []), preimage];
		runs.set(update.run, record);
	}
	return { header, runs: [...runs.values()] };
}

/** Appends to a session's log, writing its header first when the log is new. */
export class LogWriter {
	private started = false;

	constructor(
		readonly file: string,
		private readonly header: Omit<LogHeader, "pid" | "host" | "created">,
	) {}

	append(update: LogUpdate): void {
		let text = `${JSON.stringify(update)}\n`;
		if (!this.started) {
			mkdirSync(dirname(this.file), { recursive: true });
			if (!exists(this.file)) {
				const header: LogHeader = { ...this.header, pid: process.pid, host: hostname(), created: new Date().toISOString() };
				text = `${JSON.stringify(header)}\n${text}`;
			}
			this.started = true;
		}
		appendFileSync(this.file, text);
	}
}

function exists(file: string): boolean {
	try {
		statSync(file);
		return true;
	} catch {
		return false;
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
