// git for loom's own worktrees and task folders: none of the caller's GIT_* variables (a loom started from a git
// hook must not reach that repository), loom's identity for the commits it makes, and the adds and removals of
// a repository's worktrees one at a time (git locks the list; parallel adds trip on it), retried on a lock.
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Most bytes of output kept (a diff larger is cut by its reader). */
export const MAX_GIT_OUTPUT_BYTES = 16 * 1024 * 1024;

/** Git's own identity for loom's commits, whatever the user configured (or did not). */
export const GIT_IDENTITY = ["-c", "user.name=loom", "-c", "user.email=loom@localhost", "-c", "commit.gpgsign=false"];

/** git's stdout; rejects with git's message when it fails. */
export async function git(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<string> {
	const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("GIT_")));
	const { stdout } = await run("git", args, { cwd: options.cwd, env: { ...env, ...options.env }, maxBuffer: MAX_GIT_OUTPUT_BYTES, encoding: "utf8" });
	return stdout;
}

/** The repository's top folder holding `cwd`, or undefined outside git. */
export function gitTop(cwd: string): Promise<string | undefined> {
	return git(["rev-parse", "--show-toplevel"], { cwd }).then(
		(out) => out.trim(),
		() => undefined,
	);
}

/** Runs a git command again (a few times, after a short wait) when it failed on another process's lock. */
export async function withLockRetries<T>(work: () => Promise<T>): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await work();
		} catch (error) {
			if (attempt >= 5 || !/\.lock|could not lock|Unable to create/i.test(String((error as Error).message))) throw error;
			await new Promise((resolve) => setTimeout(resolve, 100 * attempt + Math.random() * 100));
		}
	}
}

let queue: Promise<unknown> = Promise.resolve();

/** One worktree change of this process at a time. */
export function serial<T>(work: () => Promise<T>): Promise<T> {
	const next = queue.then(work, work);
	queue = next.catch(() => undefined);
	return next;
}

/** Adds a worktree of the repository at `top` in `dir` (which must not exist): on a new branch, or detached at HEAD. */
export function addWorktree(top: string, dir: string, branch?: string): Promise<void> {
	const how = branch === undefined ? ["--detach", dir, "HEAD"] : ["-b", branch, dir, "HEAD"];
	return serial(() => withLockRetries(() => git(["worktree", "add", "--quiet", ...how], { cwd: top }))).then(() => undefined);
}

/** Removes the worktree at `dir` and its registration (its branch, if any, stays). */
export function removeWorktree(top: string, dir: string, removeFolder: () => void): Promise<void> {
	return serial(async () => {
		await git(["worktree", "remove", "--force", dir], { cwd: top }).catch(() => undefined);
		removeFolder();
		await git(["worktree", "prune"], { cwd: top }).catch(() => undefined);
	});
}
