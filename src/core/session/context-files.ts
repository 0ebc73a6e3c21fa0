// Project instructions for the model: AGENTS.md or CLAUDE.md from loom's home and every directory down to the cwd.
import { readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

export const CONTEXT_FILE_NAMES = ["AGENTS.md", "CLAUDE.md"] as const;

export interface ContextFile {
	path: string;
	content: string;
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
		const real = safeRealpath(found);
		if (seen.has(real)) continue;
		seen.add(real);
		try {
			files.push({ path: found, content: readFileSync(found, "utf8") });
		} catch {
			// Unreadable (permissions, removed meanwhile): instructions are optional, carry on without it.
		}
	}
	return files;
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

function safeRealpath(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
}
