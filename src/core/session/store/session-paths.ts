// Where session files live: <loomHome>/sessions/<cwd as a safe folder name>/<timestamp>_<id>.jsonl
import { createHash } from "node:crypto";
import { basename, join } from "node:path";
import { isSessionId } from "./session-entries.js";

const MAX_FOLDER_NAME = 120;

export function sessionsRoot(home: string): string {
	return join(home, "sessions");
}

/**
 * A directory path turned into one folder name: "/home/ana/my app" → "--home-ana-my-app--".
 * Readable rather than unique (/a-b and /a/b collide); each header stores the exact cwd, and listings filter by it.
 * Long paths keep their head and get a hash, staying far below file-name limits.
 */
export function cwdFolderName(cwd: string): string {
	const name = `--${cwd.replace(/^[/\\]+/, "").replace(/[^A-Za-z0-9._-]+/g, "-")}--`;
	if (name.length <= MAX_FOLDER_NAME) return name;
	const hash = createHash("sha256").update(cwd).digest("hex").slice(0, 16);
	return `${name.slice(0, MAX_FOLDER_NAME - hash.length - 3)}-${hash}--`;
}

export function sessionDirFor(home: string, cwd: string): string {
	return join(sessionsRoot(home), cwdFolderName(cwd));
}

/**
 * Where the session files of a session's subagents go: a folder beside its file ("<file without .jsonl>.subagents"),
 * so listings of the directory's sessions (-r, -c, /resume) leave them out and they go with their parent.
 */
export function subagentSessionsDir(parentFile: string): string {
	return `${parentFile.replace(/\.jsonl$/, "")}.subagents`;
}

/** "2025-03-01T09-15-02-123Z_<id>.jsonl": sorts by creation time, and holds the id for prefix lookups. */
export function sessionFileName(created: Date, id: string): string {
	return `${created.toISOString().replace(/[:.]/g, "-")}_${id}.jsonl`;
}

/** The session id encoded in a file name, or undefined for a file loom did not name. */
export function sessionIdFromFileName(file: string): string | undefined {
	const match = /^\d{4}-\d{2}-\d{2}T[\d-]+Z_(.+)\.jsonl$/.exec(basename(file));
	const id = match?.[1];
	return isSessionId(id) ? id : undefined;
}

/**
 * A session file as the user is told of it: its path and whether it exists yet, or that nothing is kept
 * (`notSaved`: the session's creator's words for that, e.g. the command line names its flag).
 */
export function sessionFileText(file: string | undefined, saved = true, notSaved = "not saved"): string {
	if (file === undefined) return notSaved;
	return saved ? file : `${file} (created with the first message)`;
}
