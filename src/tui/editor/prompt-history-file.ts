// What was typed in the screen, kept across sessions like a shell's history: one file in the loom home, a JSON
// line per prompt with the project it was typed in, so that Up in a new session recalls the project's earlier
// prompts. Bounded: at most MAX_SAVED_PROMPTS lines (the oldest go when the file is next read), prompts of at
// most MAX_SAVED_PROMPT_CHARS, and only the file's end is ever read. Private to the user (0600): a prompt may
// hold a secret. A history that cannot be read or written is no reason to stop: failures are left silent.
// Several looms share the file: an append and a trim each hold a short lock (`<file>.lock`), so that a prompt
// appended while another loom trims is not written into the file the trim is replacing, and lost.
import { appendFileSync, closeSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { openRegularFile, readAt, replaceFileSync, takeShortLock, stripControls } from "../../core/index.js";

/** Lines the file keeps, all projects together. */
export const MAX_SAVED_PROMPTS = 1000;
/** A longer prompt (a paste sent whole) is not kept; the session file still has it. */
export const MAX_SAVED_PROMPT_CHARS = 10_000;
/** The end of the file that is read: room for the lines kept, at their usual length. */
const MAX_READ_BYTES = 4 * 1024 * 1024;
/**
 * How long an append waits for a trim in another loom (a trim takes milliseconds); past it the prompt is appended
 * anyway, as a lost lock must not cost the prompt. A trim does not wait: the next loom to start trims.
 */
const APPEND_WAIT_MS = 2000;

interface SavedPrompt {
	cwd: string;
	text: string;
}

export function promptHistoryPath(loomHome: string): string {
	return join(loomHome, "prompt-history.jsonl");
}

/** Adds a prompt typed in `cwd` at the end of the file (created if need be). */
export function savePrompt(file: string, cwd: string, text: string): void {
	if (text.trim() === "" || text.length > MAX_SAVED_PROMPT_CHARS) return;
	try {
		mkdirSync(dirname(file), { recursive: true });
	} catch {
		return;
	}
	const release = takeShortLock(lockPath(file), APPEND_WAIT_MS);
	try {
		// O_APPEND, one write: appends from several looms never overwrite each other.
		appendFileSync(file, line({ cwd, text }), { mode: 0o600 });
	} catch {
	} finally {
		release?.();
	}
}

/**
 * The latest `limit` prompts typed in `cwd`, oldest first, a prompt repeated at once kept once, without terminal
 * escapes. Trims a file that grew past its bound (atomically: the kept lines replace it).
 */
export function loadPromptHistory(file: string, cwd: string, limit = MAX_SAVED_PROMPTS): string[] {
	const tail = readTail(file);
	if (!tail) return [];
	if (overBound(tail)) trim(file);
	const entries = keptEntries(tail);
	const prompts: string[] = [];
	for (const entry of entries) {
		if (entry.cwd !== cwd) continue;
		const text = stripControls(entry.text, { keepTabs: true });
		if (text.trim() !== "" && prompts.at(-1) !== text) prompts.push(text);
	}
	return prompts.slice(-limit);
}

function line(entry: SavedPrompt): string {
	return `${JSON.stringify(entry)}\n`;
}

/** The file's last lines (from its last MAX_READ_BYTES); `cut` when its start was left unread. */
function readTail(file: string): { lines: string[]; cut: boolean } | undefined {
	try {
		const { fd, stat } = openRegularFile(file);
		try {
			const start = Math.max(0, stat.size - MAX_READ_BYTES);
			const text = readAt(fd, start, stat.size - start).toString("utf8");
			// Past a cut, the first line is a piece of one.
			const lines = text.split("\n").slice(start > 0 ? 1 : 0);
			return { lines: lines.filter((entry) => entry.trim() !== ""), cut: start > 0 };
		} finally {
			closeSync(fd);
		}
	} catch {
		return undefined;
	}
}

function parse(text: string): SavedPrompt | undefined {
	try {
		const value = JSON.parse(text) as Partial<SavedPrompt> | null;
		if (typeof value?.cwd === "string" && typeof value.text === "string") return { cwd: value.cwd, text: value.text };
	} catch {}
	return undefined;
}

function lockPath(file: string): string {
	return `${file}.lock`;
}

function overBound(tail: { lines: string[]; cut: boolean }): boolean {
	return tail.cut || tail.lines.length > MAX_SAVED_PROMPTS;
}

function keptEntries(tail: { lines: string[] }): SavedPrompt[] {
	return tail.lines.map(parse).filter((entry) => entry !== undefined).slice(-MAX_SAVED_PROMPTS);
}

/** Replaces the file by its kept lines, read again under the lock: appends made meanwhile wait, then land in the new file. */
function trim(file: string): void {
	const release = takeShortLock(lockPath(file), 0);
	if (!release) return;
	try {
		const tail = readTail(file);
		if (tail && overBound(tail)) replaceFileSync(file, keptEntries(tail).map(line).join(""), { mode: 0o600 });
	} catch {
	} finally {
		release();
	}
}
