// Where a session's conversation is kept: in memory only, a new file, a given file, or the newest file of a
// directory. A manager is a description; createAgentSession opens it once it knows loom's home.
import { resolve } from "node:path";
import { newestSessionFile, SessionStore } from "../core/index.js";

type Kind = { kind: "memory" } | { kind: "new"; dir?: string } | { kind: "file"; path: string } | { kind: "fork"; path: string; entry?: string } | { kind: "recent" };

export class SessionManager {
	private constructor(
		private readonly how: Kind,
		/** The directory the session works in, when the manager was given one. */
		readonly cwd?: string,
	) {}

	/**
	 * Nothing is written under loom's home: no session file, no checkpoints (so /rewind restores no files); /new
	 * starts another session in memory.
	 */
	static inMemory(cwd?: string): SessionManager {
		return new SessionManager({ kind: "memory" }, cwd && resolve(cwd));
	}

	/**
	 * A new session file in the usual place (`<loom home>/sessions/<directory>/`), or in `options.dir` (a subagent's,
	 * beside its parent's file), written from the first message on.
	 */
	static create(cwd?: string, options: { dir?: string } = {}): SessionManager {
		return new SessionManager({ kind: "new", ...(options.dir ? { dir: resolve(options.dir) } : {}) }, cwd && resolve(cwd));
	}

	/** Continues the session in this file (relative paths from the process's working directory). */
	static open(path: string): SessionManager {
		return new SessionManager({ kind: "file", path: resolve(path) });
	}

	/**
	 * A new session file that starts from this file's conversation (the file is only read, so another loom may
	 * be writing it), written from the first new message on.
	 */
	static fork(path: string, cwd?: string, entry?: string): SessionManager {
		return new SessionManager({ kind: "fork", path: resolve(path), entry }, cwd && resolve(cwd));
	}

	/** Continues the directory's most recent session, or starts a new one when it has none. */
	static continueRecent(cwd?: string): SessionManager {
		return new SessionManager({ kind: "recent" }, cwd && resolve(cwd));
	}

	/** Whether the session's messages are written to a file. */
	get persists(): boolean {
		return this.how.kind !== "memory";
	}

	/**
	 * The session's store: opened (a file, the newest file), forked or new. Rejects when a file cannot be used,
	 * or (SessionInUseError) while another loom process writes it.
	 */
	async openStore(home: string, cwd: string): Promise<SessionStore> {
		switch (this.how.kind) {
			case "file":
				return SessionStore.open(this.how.path);
			case "fork":
				return SessionStore.fork(this.how.path, { home, cwd }, this.how.entry);
			case "recent": {
				const newest = newestSessionFile(home, cwd);
				return newest ? SessionStore.open(newest) : this.newStore(home, cwd);
			}
			default:
				return this.newStore(home, cwd);
		}
	}

	/** A store for a new session (what /new switches to): in memory for an in-memory manager, a new file otherwise. */
	newStore(home: string, cwd: string): SessionStore {
		return SessionStore.create({ home, cwd, persist: this.persists, ...(this.how.kind === "new" && this.how.dir ? { dir: this.how.dir } : {}) });
	}
}
