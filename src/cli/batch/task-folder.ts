// Where a task works, apart from every other task: a detached git worktree of its folder's repository, a clone of
// its `repo`, or, for a folder outside git, a copy whose starting state a snapshot repository beside it records.
// After the run the folder's changes are taken as one diff, then the folder goes.
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { GIT_IDENTITY as IDENTITY, addWorktree, git, gitTop, removeWorktree } from "../../plugs/index.js";

/** Most bytes of a task's diff kept (a larger one is cut, and says so). */
const MAX_DIFF_BYTES = 8 * 1024 * 1024;

export interface TaskFolder {
	/** Where the task's loom runs. */
	cwd: string;
	/** Everything the task changed since the folder was made, as a git diff (binary files included). */
	diff(): Promise<string>;
	/** Removes the folder (and its worktree registration). */
	remove(): Promise<void>;
}

/** Makes the task's folder at `dir` (which must not exist) from `source` (a folder) or `repo` (a repository to clone). */
export async function makeTaskFolder(dir: string, from: { cwd: string } | { repo: string }): Promise<TaskFolder> {
	if ("repo" in from) {
		await git(["clone", "--quiet", from.repo, dir]);
		return gitFolder(dir, dir, async () => rmSync(dir, { recursive: true, force: true }));
	}
	const top = await gitTop(from.cwd);
	if (top !== undefined) {
		await addWorktree(top, dir);
		const cwd = join(dir, relative(top, from.cwd));
		mkdirSync(cwd, { recursive: true });
		return gitFolder(dir, cwd, () => removeWorktree(top, dir, () => rmSync(dir, { recursive: true, force: true })));
	}
	return await copyFolder(dir, from.cwd);
}

function gitFolder(top: string, cwd: string, remove: () => Promise<void>): TaskFolder {
	return {
		cwd,
		async diff() {
			// Staged in a throwaway index inside the git directory, so the task's own staging area stays as it left it.
			const gitDir = (await git(["rev-parse", "--absolute-git-dir"], { cwd: top })).trim();
			const index = { GIT_INDEX_FILE: join(gitDir, "loom-batch-index") };
			await git(["read-tree", "HEAD"], { cwd: top, env: index });
			await git(["add", "-A", "."], { cwd: top, env: index });
			return cut(await git(["diff", "--cached", "--binary", "HEAD"], { cwd: top, env: index }));
		},
		remove,
	};
}

async function copyFolder(dir: string, source: string): Promise<TaskFolder> {
	const snapshot = `${dir}.git`;
	const at = (args: string[]) => git(["--git-dir", snapshot, "--work-tree", dir, ...args]);
	cpSync(source, dir, { recursive: true, verbatimSymlinks: true });
	await git(["init", "--quiet", "--bare", snapshot]);
	await at(["add", "-A", "."]);
	await at([...IDENTITY, "commit", "--quiet", "--allow-empty", "-m", "start"]);
	return {
		cwd: dir,
		async diff() {
			await at(["add", "-A", "."]);
			return cut(await at(["diff", "--cached", "--binary", "HEAD"]));
		},
		async remove() {
			rmSync(dir, { recursive: true, force: true });
			rmSync(snapshot, { recursive: true, force: true });
		},
	};
}

function cut(diff: string): string {
	return diff.length <= MAX_DIFF_BYTES ? diff : `${diff.slice(0, MAX_DIFF_BYTES)}\n[diff cut at ${MAX_DIFF_BYTES} bytes]\n`;
}
