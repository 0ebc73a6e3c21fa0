// Project instructions for the model: AGENTS.md or CLAUDE.md from loom's home and every directory down to the cwd.
import { closeSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { openRegularFile, readAt, decodeText, realpathOrSelf, formatSize } from "../../lib/index.js";

export const CONTEXT_FILE_NAMES = ["AGENTS.md", "CLAUDE.md"] as const;

/** Each context file gives the model at most this much; instructions longer than that are a mistake. */
const MAX_CONTEXT_FILE_BYTES = 64 * 1024;

export interface ContextFile {
	path: string;
	content: string;
	/** Set when the file was cut to MAX_CONTEXT_FILE_BYTES: what to tell the user. */
	warning?: string;
}

/**
 * In order: <loomHome>, then each directory from the filesystem root down to `cwd`; in each, the first of
 * AGENTS.md or CLAUDE.md that exists. A file reached twice (loomHome on the path, symlinks) is read once.
 */
export function loadContextFiles(cwd: string, home: string): ContextFile[] {
	const files: ContextFile[] = [];
	const seen = new Set<string>();
	for (const dir of [home, ...ancestorsFromRoot(resolve(cwd))]) {
		const found = firstContextFile(dir);
		if (!found) continue;
		const real = realpathOrSelf(found);
		if (seen.has(real)) continue;
		seen.add(real);
		try {
			files.push(readContextFile(found));
		} catch {
			// Unreadable (permissions, removed or replaced meanwhile): instructions are optional, carry on without it.
		}
	}
	return files;
}

/** The file's text (see decodeText), cut at the last line break within MAX_CONTEXT_FILE_BYTES when it is longer. */
function readContextFile(path: string): ContextFile {
	const { fd, stat } = openRegularFile(path);
	try {
		const bytes = readAt(fd, 0, MAX_CONTEXT_FILE_BYTES + 1);
		if (bytes.length <= MAX_CONTEXT_FILE_BYTES) return { path, content: decodeText(bytes) };
		// A character cut at the end decodes to one replacement character, after the last line break (UTF-8 and
		// UTF-16 alike never hold a line break inside another character); without a line break it stays: harmless.
		const head = decodeText(bytes.subarray(0, MAX_CONTEXT_FILE_BYTES));
		const lineEnd = head.lastIndexOf("\n");
		const content = lineEnd > 0 ? head.slice(0, lineEnd + 1) : head;
		const size = Math.max(stat.size, bytes.length);
		return {
			path,
			content,
			warning: `${path} is ${formatSize(size)}; only its first ${MAX_CONTEXT_FILE_BYTES / 1024} KB are given to the model.`,
		};
	} finally {
		closeSync(fd);
	}
}

/** "/a/b/c" → ["/", "/a", "/a/b", "/a/b/c"]. */
export function ancestorsFromRoot(dir: string): string[] {
	const chain: string[] = [];
	let current = dir;
	for (;;) {
		chain.push(current);
		const parent = dirname(current);
		if (parent === current) break;
		current = parent;
	}
	return chain.reverse();
}

function firstContextFile(dir: string): string | undefined {
	for (const name of CONTEXT_FILE_NAMES) {
		const path = join(dir, name);
		try {
			if (statSync(path).isFile()) return path;
		} catch {
			// Not there: try the next name.
		}
	}
	return undefined;
}
