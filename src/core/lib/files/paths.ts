// Small questions about paths that many places ask, each answered one way: a folder's names, whether a path is a
// folder or any entry at all, where a path really is, which git repository holds a folder, and what a typed `~`
// means. None of them throws.
import { existsSync, lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/** The names in a folder, in the order the system lists them; none when it does not exist or cannot be read. */
export function directoryNames(dir: string): string[] {
	try {
		return readdirSync(dir);
	} catch {
		return [];
	}
}

/** Whether `path` is a folder, a link to one included; false when it does not exist or cannot be looked at. */
export function isDirectory(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

/** Whether a folder holds an entry at `path`, whatever it is: a link that leads nowhere or loops counts. */
export function entryExists(path: string): boolean {
	try {
		lstatSync(path);
		return true;
	} catch {
		return false;
	}
}

/** The path with links resolved, or as given when it cannot be (it does not exist). */
export function realpathOrSelf(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
}

/**
 * The nearest folder at or above `dir` holding .git (a folder, or a file in a worktree or submodule), if any.
 * `dir` is walked up as given: pass an absolute path.
 */
export function repositoryTop(dir: string): string | undefined {
	for (let current = dir; ; current = dirname(current)) {
		if (existsSync(join(current, ".git"))) return current;
		if (dirname(current) === current) return undefined;
	}
}

/**
 * `~` and `~/…` become the home directory and paths under it; any other path is returned unchanged. A path a person
 * typed: shells expand `~` only in some positions, so loom does it where paths come in.
 */
export function expandHome(path: string, home: string = homedir()): string {
	if (path === "~") return home;
	if (path.startsWith("~/")) return join(home, path.slice(2));
	return path;
}
