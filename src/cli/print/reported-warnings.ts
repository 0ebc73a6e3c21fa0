// Print mode's memory of the warnings it wrote: a warning about a file (a skipped SKILL.md or prompt template, a
// context file cut short) is written once, then again only when the file changes, so a script's stderr is not
// filled with the same lines on every run. The screen says them at each start; so does RPC mode on stderr.
// Kept in <loom home>/reported-warnings.json: { "<warning>": { "mtimeMs": …, "size": … } }.
import { lstatSync, type Stats, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { readJsonState, writeJsonState } from "../../core/index.js";

const FILE = "reported-warnings.json";
const MAX_BYTES = 1024 * 1024;
/** How far into a warning its file's path is looked for. */
const MAX_PATH = 4096;
/** Warnings remembered at most, the latest kept. */
const MAX_ENTRIES = 500;

interface FileState {
	mtimeMs: number;
	size: number;
}

type Memory = Record<string, FileState>;

/**
 * The warnings to write now: those not about a file, and those about a file that changed since they were last
 * written (or never were). Remembers what it returns; a memory that cannot be read or written forgets quietly.
 */
export function warningsToReport(home: string, warnings: readonly string[]): string[] {
	const memory = load(home);
	const fresh: string[] = [];
	const seen: Memory = {};
	for (const warning of warnings) {
		const state = fileState(fileNamedBy(warning));
		if (!state) {
			fresh.push(warning);
			continue;
		}
		const last = memory[warning];
		if (!last || last.mtimeMs !== state.mtimeMs || last.size !== state.size) fresh.push(warning);
		seen[warning] = state;
	}
	if (fresh.some((warning) => seen[warning] !== undefined)) save(home, memory, seen);
	return fresh;
}

/**
 * The file a warning is about: loom's warnings about a file start with its absolute path, followed by ":" or a
 * blank. The longest such start that names a file wins (a path may hold blanks and colons too).
 */
export function fileNamedBy(warning: string): string | undefined {
	if (!isAbsolute(warning)) return undefined;
	let found: string | undefined;
	for (let end = warning.indexOf(" "); end !== -1 && end <= MAX_PATH; end = warning.indexOf(" ", end + 1)) {
		const candidate = warning.slice(0, end).replace(/:$/, "");
		if (fileState(candidate)) found = candidate;
	}
	return found;
}

/**
 * What tells a change of the file a warning is about: a regular file's size and time, or, for what cannot be read
 * as one (a FIFO, a link that leads nowhere or loops), the entry's own. None for a folder or nothing.
 */
function fileState(path: string | undefined): FileState | undefined {
	if (path === undefined) return undefined;
	const stat = entryStat(path);
	return stat && !stat.isDirectory() ? { mtimeMs: stat.mtimeMs, size: stat.size } : undefined;
}

/** What the path leads to, or the link itself when it leads nowhere. */
function entryStat(path: string): Stats | undefined {
	try {
		return statSync(path);
	} catch {
		try {
			return lstatSync(path);
		} catch {
			return undefined;
		}
	}
}

function load(home: string): Memory {
	const parsed = readJsonState(join(home, FILE), MAX_BYTES);
	return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Memory) : {};
}

/** This run's warnings last (the latest kept when the memory is full), written atomically. */
function save(home: string, memory: Memory, seen: Memory): void {
	const kept = Object.entries(memory).filter(([warning]) => seen[warning] === undefined);
	const entries = [...kept, ...Object.entries(seen)].slice(-MAX_ENTRIES);
	try {
		writeJsonState(join(home, FILE), Object.fromEntries(entries), { mode: 0o600, indent: "\t" });
	} catch {
		// Not remembered: the warning is written again next time, which is no harm.
	}
}
