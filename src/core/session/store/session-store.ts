// One session's entries in memory, appended to its JSON Lines file as they happen (or kept in memory only).
import { randomUUID } from "node:crypto";
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { type BranchEntry, type EntryPayload, SESSION_FORMAT_VERSION, type SessionEntry, SessionFileError, type SessionHeader } from "./session-entries.js";
import { sessionChain } from "./session-chain.js";
import { acquireSessionLock, type SessionLock } from "./session-lock.js";
import { sessionDirFor, sessionFileName } from "./session-paths.js";
import { type LoadedSession, loadSessionFile, openSessionFile, readSessionFile } from "./session-reader.js";

export interface NewSessionOptions {
	home: string;
	cwd: string;
	/** false: keep nothing on disk (--no-session). */
	persist?: boolean;
	now?: Date;
	/** The folder the file goes in (default: the directory's sessions folder; a subagent's: subagentSessionsDir). */
	dir?: string;
}

/**
 * A store writes its file only while it holds the file's lock (see session-lock.ts): an opened session from
 * open() on, a new one from its first write; close() releases it.
 */
export class SessionStore {
	/** Every entry of the file, in file order: every branch of the conversation. */
	private readonly all: SessionEntry[];
	/** The conversation: the chain from the root to `leaf`. */
	private list: SessionEntry[];
	/** The entry the next one continues from (null: none yet). */
	private leaf: string | null;
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
	private forked = false;
	private lock: SessionLock | undefined;

	private constructor(
		readonly header: SessionHeader,
		/** Undefined when nothing is kept on disk. */
		readonly file: string | undefined,
		/** Every entry, in file order. */
		all: SessionEntry[],
		/** The conversation's chain in `all` (see sessionChain). */
		chain: SessionEntry[],
		headerWritten: boolean,
		needsNewline: boolean,
		/** Problems met while loading (skipped lines, entries off the chain). */
		readonly warnings: readonly string[] = [],
	) {
		this.all = all;
		this.list = chain;
		this.leaf = chain.at(-1)?.id ?? null;
		this.ids = new Set(all.map((entry) => entry.id));
		this.messages = countMessages(chain);
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
			options.persist === false ? undefined : join(options.dir ?? sessionDirFor(options.home, options.cwd), sessionFileName(created, header.id));
		const store = new SessionStore(header, file, [...entries], entries, false, false, warnings);
		store.forked = parentSession !== undefined;
		if (file !== undefined) store.pending = entries.map((entry) => `${JSON.stringify(entry)}\n`);
		return store;
	}

	/**
	 * Opens an existing session file (streamed) and locks it: later entries are appended to it, nothing is
	 * rewritten. Throws SessionInUseError while another loom process has it open.
	 */
	static async open(file: string): Promise<SessionStore> {
		// Checked before locking: no lock file is ever put next to something that is not a session.
		const checked = openSessionFile(file);
		let lock: SessionLock | undefined;
		try {
			lock = acquireSessionLock(file);
			const store = SessionStore.fromLoaded(await readSessionFile(checked));
			store.lock = lock;
			return store;
		} catch (error) {
			// readSessionFile closes the file however it ends; unread, it is closed here.
			if (lock) lock.release();
			else checked.close();
			throw error;
		}
	}

	/**
	 * A new session that starts from `file`'s conversation: the chain up to `entryId` (default: its current end) is
	 * copied (ids kept) into the new file, whose header names `file` as parentSession. `file` is only read, so it may
	 * be in use elsewhere. Like any new session, the new file appears with its next message, or with save().
	 */
	static async fork(file: string, options: NewSessionOptions, entryId?: string): Promise<SessionStore> {
		const loaded = await loadSessionFile(file);
		if (entryId !== undefined && !loaded.entries.some((entry) => entry.id === entryId)) {
			throw new SessionFileError(`${file} has no entry ${entryId} to fork from.`);
		}
		const chain = sessionChain(loaded.entries, entryId);
		return SessionStore.createWith(options, chain.entries, [...loaded.warnings, ...notesOf(loaded, chain.notes)], loaded.file);
	}

	/** Like fork(), from this store's entries: the conversation up to `entryId` (null: an empty one). */
	forkAt(entryId: string | null, options: NewSessionOptions): SessionStore {
		const chain = entryId === null ? [] : sessionChain(this.all, this.known(entryId)).entries;
		return SessionStore.createWith(options, chain, [], this.file);
	}

	/** The store holds the conversation's chain (see sessionChain); entries off it stay in the file, reachable by branch(). */
	static fromLoaded(loaded: LoadedSession): SessionStore {
		const chain = sessionChain(loaded.entries);
		const warnings = [...loaded.warnings, ...notesOf(loaded, chain.notes)];
		return new SessionStore(loaded.header, loaded.file, loaded.entries, chain.entries, true, !loaded.endsWithNewline, warnings);
	}

	get id(): string {
		return this.header.id;
	}

	/** The conversation: its entries from the first to the current one, following parentId. */
	get entries(): readonly SessionEntry[] {
		return this.list;
	}

	/** Every entry of the session, every branch, in the order they were written. */
	get allEntries(): readonly SessionEntry[] {
		return this.all;
	}

	/**
	 * Writes a new session's file now, when its conversation holds a message (a fork's copy), so that it outlives a
	 * quit before the next message. Otherwise, or when the file is written already, does nothing. Throws when the
	 * write fails; what was not written stays waiting for the next entry.
	 */
	save(): void {
		if (this.file === undefined || this.headerWritten || this.closed || this.messages === 0) return;
		this.write(this.pending.join(""));
	}

	/** Made by fork() or forkAt() in this process, rather than opened (an opened file may be an earlier fork). */
	get forkedNow(): boolean {
		return this.forked;
	}

	/** Whether the file is on disk: a new session's appears with its first message; false when nothing is kept. */
	get saved(): boolean {
		return this.file !== undefined && this.headerWritten;
	}

	/** Messages in the conversation (its chain). */
	get messageCount(): number {
		return this.messages;
	}

	/** The entry the conversation is at: the next entry continues from it (null: nothing yet). */
	get lastEntryId(): string | null {
		return this.leaf;
	}

	/**
	 * Moves the conversation to `entryId` (null: back to its very start) by appending a branch entry there; the
	 * branch it leaves stays in the file. Returns that entry.
	 */
	branch(entryId: string | null): SessionEntry {
		if (entryId !== null) this.known(entryId);
		const fromId = this.leaf;
		this.leaf = entryId;
		this.list = entryId === null ? [] : sessionChain(this.all, entryId).entries;
		this.messages = countMessages(this.list);
		return this.add({ type: "branch", fromId });
	}

	/**
	 * Adds an entry and, when persisting, writes it with one synchronous write: once this returns the line is in
	 * the kernel, so killing the process (even with SIGKILL) cannot lose it. No fsync per entry: that guards only
	 * against power loss and would cost milliseconds per message. In a new session, model and thinking entries
	 * wait in memory for the first message and are written with it.
	 */
	append(payload: EntryPayload): SessionEntry {
		return this.add(payload);
	}

	private add(payload: EntryPayload | Pick<BranchEntry, "type" | "fromId">): SessionEntry {
		if (this.closed) throw new Error("Session store is closed");
		if (payload.type === "message") this.messages++;
		// Key order matters: type, id, parentId, timestamp and n lead each line (see EntryBase.n).
		const { type, ...rest } = payload;
		const entry = {
			type,
			id: this.newEntryId(),
			parentId: this.leaf,
			timestamp: new Date().toISOString(),
			n: this.messages,
			...rest,
		} as SessionEntry;
		this.all.push(entry);
		this.list.push(entry);
		this.leaf = entry.id;
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

	/** `entryId`, checked to be an entry of this session. */
	private known(entryId: string): string {
		if (!this.ids.has(entryId)) throw new Error(`This session has no entry ${entryId}.`);
		return entryId;
	}

	/**
	 * Eight random hex digits: a UUID's first eight are random, and randomUUID draws from a pool Node keeps,
	 * where randomBytes(4) asks the system each time (a tenth of a millisecond, twice a turn).
	 */
	private newEntryId(): string {
		for (;;) {
			const id = randomUUID().slice(0, 8);
			if (!this.ids.has(id)) return id;
		}
	}
}

function countMessages(entries: readonly SessionEntry[]): number {
	return entries.reduce((count, entry) => count + (entry.type === "message" ? 1 : 0), 0);
}

function notesOf(loaded: LoadedSession, notes: string[]): string[] {
	return notes.map((note) => `${loaded.file}: ${note}`);
}
