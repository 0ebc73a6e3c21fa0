// Temporary directories for tests: real directories under the system's temporary directory, removed when the
// test file's tests end (test/support/remove-temp-dirs.ts, a setup file of every project: a worker that shares
// modules between files loads this module once, so a hook registered here would end only the first file's).
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const created: string[] = [];

/** Removes the directories made since the last call. */
export function removeTempDirs(): void {
	// A loom just killed with its terminal may still be finishing a write there (a checkpoint): removing again
	// while the folder is not yet empty, for up to a few seconds, outlasts it.
	for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 50, retryDelay: 100 });
}

/** A new empty directory, by its real path (symbolic links in the temporary directory's path resolved). */
export function tempDir(prefix = "loom-test-"): string {
	const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
	created.push(dir);
	return dir;
}

/** A project directory and a LOOM_HOME, side by side in a new temporary directory. */
export interface Workspace {
	cwd: string;
	home: string;
}

export function workspace(): Workspace {
	const root = tempDir("loom-cli-");
	const cwd = join(root, "project");
	const home = join(root, "loom-home");
	mkdirSync(cwd);
	mkdirSync(home);
	return { cwd, home };
}
