// One session's entries in memory, appended to its JSON Lines file as they happen (or kept in memory only).
import { randomBytes, randomUUID } from "node:crypto";
import { closeSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { type EntryPayload, SESSION_FORMAT_VERSION, type SessionEntry, type SessionHeader } from "./session-entries.js";
import { sessionChain } from "./session-chain.js";
import { acquireSessionLock, type SessionLock } from "./session-lock.js";
import { sessionDirFor, sessionFileName } from "./session-paths.js";
import { checkSessionFile, type LoadedSession, loadSessionFile } from "./session-reader.js";

export interface NewSessionOptions {
	home: string;
	cwd: string;
	/** false: keep nothing on disk (--no-session). */
	persist?: boolean;
	now?: Date;
}

/**
 * A store writes its file only while it holds the file's lock (see session-lock.ts): an opened session from
 * open() on, a new one from its first write; close() releases it.
 */

export class SessionStore {
	private readonly list: SessionEntry[];
	private readonly ids: Set<string>;
	private messages: number;
	private fd: number | undefined;
	/** Whether the header line is already on disk (new files are created on the first append). */
	private headerWritten: boolean;
	/** An existing file whose last line has no newline (torn write): one is added before the next entry. */
	private needsNewline: boolean;
	/** Entries of a new session waiting for its first message, so a session without messages leaves no file. */
	private pending: string[] = [];
	private closed = false;
	private lock: SessionLock | undefined;

	private constructor(
		readonly header: SessionHeader,
		/** Undefined when nothing is kept on disk. */
		readonly file: string | undefined,
		entries: SessionEntry[],
		headerWritten: boolean,
		needsNewline: boolean,
		/** Problems met while loading (skipped lines, entries off the chain). */
		readonly warnings: readonly string[] = [],
		/** Every id in the file, off-chain ones included, so a new entry never reuses one. */
		fileIds: readonly string[] = [],
	) {
		this.list = entries;
		this.ids = new Set([...fileIds, ...entries.map((entry) => entry.id)]);
		this.messages = entries.reduce((count, entry) => count + (entry.type === "message" ? 1 : 0), 0);
		this.headerWritten = headerWritten;
		this.needsNewline = needsNewline;
	}

	/** A new session. Its file appears only with the first message, so idle launches leave no clutter. */
	static create(options: NewSessionOptions): SessionStore {
		return SessionStore.createWith(options, [], []);
	}

	private static createWith(options: NewSessionOptions, entries: SessionEntry[], warnings: string[], parentSession?: string): SessionStore {
		const created = options.now ?? new Date();
		const header: SessionHeader = {
			type: "session",
			version: SESSION_FORMAT_VERSION,
			id: randomUUID(),
			created: created.toISOString(),
			cwd: options.cwd,
			...(parentSession === undefined ? {} : { parentSession }),
		};
		const file =
			options.persist === false ? undefined : join(sessionDirFor(options.home, options.cwd), sessionFileName(created, header.id));
		const store = new SessionStore(header, file, entries, false, false, warnings);
		if (file !== undefined) store.pending = entries.map((entry) => `${JSON.stringify(entry)}\n`);
		return store;
	}

	/**
	 * Opens an existing session file (streamed) and locks it: later entries are appended to it, nothing is
	 * rewritten. Throws SessionInUseError while another loom process has it open.
	 */
	static async open(file: string): Promise<SessionStore> {
		// Checked before locking: no lock file is ever put next to something that is not a session.
		checkSessionFile(file);
		const lock = acquireSessionLock(file);
		try {
			const store = SessionStore.fromLoaded(await loadSessionFile(file));
			store.lock = lock;
			return store;
		} catch (error) {
			lock.release();
			throw error;
		}
	}

	/**
	 * A new session that starts from `file`'s conversation: its entries are copied (ids and chain kept) into the new
	 * file, whose header names `file` as parentSession. `file` is only read, so it may be in use elsewhere. Like any
	 * new session, the new file appears with its first message.
	 */
	static async fork(file: string, options: NewSessionOptions): Promise<SessionStore> {
		const loaded = await loadSessionFile(file);
		const chain = sessionChain(loaded.entries);
		return SessionStore.createWith(options, chain.entries, [...loaded.warnings, ...notesOf(loaded, chain.notes)], loaded.file);
	}

	/** The store holds the conversation's chain (see sessionChain); entries off it stay in the file, unused. */
	static fromLoaded(loaded: LoadedSession): SessionStore {
		const chain = sessionChain(loaded.entries);
		const warnings = [...loaded.warnings, ...notesOf(loaded, chain.notes)];
		const ids = loaded.entries.map((entry) => entry.id);
		return new SessionStore(loaded.header, loaded.file, chain.entries, true, !endsWithNewline(loaded.file), warnings, ids);
	}

	get id(): string {
		return this.header.id;
	}

	get entries(): readonly SessionEntry[] {
		return this.list;
	}

	get messageCount(): number {
		return this.messages;
	}

	get lastEntryId(): string | null {
		return this.list.at(-1)?.id ?? null;
	}

	/**
	 * Adds an entry and, when persisting, writes it with one synchronous write: once this returns the line is in
	 * the kernel, so killing the process (even with SIGKILL) cannot lose it. No fsync per entry: that guards only
	 * against power loss and would cost milliseconds per message. In a new session, model and thinking entries
	 * wait in memory for the first message and are written with it.
	 */
	append(payload: EntryPayload): SessionEntry {
		if (this.closed) throw new Error("Session store is closed");
		if (payload.type === "message") this.messages++;
		// Key order matters: type, id, parentId, timestamp and n lead each line (see EntryBase.n).
		const { type, ...rest } = payload;
		const entry = {
			type,
			id: this.newEntryId(),
			parentId: this.lastEntryId,
			timestamp: new Date().toISOString(),
			n: this.messages,
			...rest,
		} as SessionEntry;
		this.list.push(entry);
		this.ids.add(entry.id);
		if (this.file === undefined) return entry;
		const line = `${JSON.stringify(entry)}\n`;
		if (!this.headerWritten && entry.type !== "message") this.pending.push(line);
		else this.write(this.pending.join("") + line);
		return entry;
	}

	close(): void {
		if (this.fd !== undefined) closeSync(this.fd);
		this.fd = undefined;
		this.closed = true;
		this.lock?.release();
		this.lock = undefined;
	}

	/**
	 * Writes the waiting entries and `line`. If the write fails (disk full), nothing is lost that can be kept: when
	 * nothing reached the file the header and waiting entries stay pending; when part did, the next entry starts on
	 * a new line, so the torn line is the only one skipped on load.
	 */
	private write(line: string): void {
		if (this.fd === undefined) this.fd = this.openForAppend();
		let text = line;
		if (!this.headerWritten) text = `${JSON.stringify(this.header)}\n${text}`;
		else if (this.needsNewline) text = `\n${text}`;
		const buffer = Buffer.from(text, "utf8");
		let offset = 0;
		try {
			while (offset < buffer.length) offset += writeSync(this.fd, buffer, offset);
		} catch (error) {
			if (offset > 0) this.settleWrite(true);
			throw error;
		}
		this.settleWrite(false);
	}

	private settleWrite(torn: boolean): void {
		this.headerWritten = true;
		this.needsNewline = torn;
		this.pending = [];
	}

	private openForAppend(): number {
		const file = this.file!;
		if (this.headerWritten) return openSync(file, "a");
		mkdirSync(dirname(file), { recursive: true });
		this.lock ??= acquireSessionLock(file);
		// "wx": never clobber an existing file, whatever the clock did.
		return openSync(file, "wx");
	}

	private newEntryId(): string {
		for (;;) {
			const id = randomBytes(4).toString("hex");
			if (!this.ids.has(id)) return id;
		}
	}
}

function notesOf(loaded: LoadedSession, notes: string[]): string[] {
	return notes.map((note) => `${loaded.file}: ${note}`);
}

function endsWithNewline(file: string): boolean {
	const fd = openSync(file, "r");
	try {
		const size = fstatSync(fd).size;
		if (size === 0) return true;
		const last = Buffer.alloc(1);
		readSync(fd, last, 0, 1, size - 1);
		return last[0] === 0x0a;
	} finally {
		closeSync(fd);
	}
}
