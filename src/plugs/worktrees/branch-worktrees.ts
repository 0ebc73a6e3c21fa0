// Worktrees on branches of their own, for work that runs beside the user's tree: a subagent's (the task tool's
// `isolation: worktree`) and a whole session's (`loom --worktree`). Each is a new branch `loom/<name>` from HEAD,
// checked out under loom's home; when a subagent's work ends its changes are committed on the branch, the files git
// ignores (which no commit carries) are moved to a folder kept beside it, and its folder is removed, so the branch
// carries the work until the user merges (/merge) or discards it (/discard).
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { GIT_IDENTITY, addWorktree, git, gitTop, removeWorktree } from "./git-run.js";

export const BRANCH_PREFIX = "loom/";

export interface BranchWorktree {
	branch: string;
	/** The worktree's top folder. */
	path: string;
	/** Where the work runs: the same place inside the worktree as the directory it was made from. */
	cwd: string;
	/** The commit it started from. */
	base: string;
	/**
	 * Commits every change on the branch, moves the files git ignores to a kept folder, removes the worktree (the
	 * branch stays) and says what changed. When it throws, the worktree is left where it is.
	 */
	finish(message: string): Promise<FinishedWorktree>;
}

export interface FinishedWorktree {
	diffStat: string;
	/** Set when the work left files git ignores: the folder they were moved to, and their paths (folders end in `/`). */
	kept?: { folder: string; files: string[] };
}

/** "fix-parser" from any text: lowercase letters, digits and hyphens. */
function slug(text: string): string {
	return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40) || "work";
}

/** The repository holding `cwd`; throws an Error fit for the model or user outside git. */
async function repository(cwd: string): Promise<string> {
	const top = await gitTop(cwd);
	if (top === undefined) throw new Error(`${cwd} is not inside a git repository: a worktree needs one (run git init, or work without isolation).`);
	return top;
}

/** A new branch `loom/<name>[-n]` from HEAD, checked out in `<home>/worktrees/<repository>/<branch>`. */
export async function startBranchWorktree(cwd: string, home: string, name: string): Promise<BranchWorktree> {
	const top = await repository(cwd);
	const base = (await git(["rev-parse", "HEAD"], { cwd: top })).trim();
	const root = join(home, "worktrees", slug(basename(top)));
	mkdirSync(root, { recursive: true });
	const { branch, path } = await addFreeWorktree(top, root, `${BRANCH_PREFIX}${slug(name)}`);
	const inner = join(path, relative(top, cwd));
	mkdirSync(inner, { recursive: true });
	return {
		branch,
		path,
		cwd: inner,
		base,
		async finish(message) {
			await git(["add", "-A", "."], { cwd: path });
			const staged = (await git(["diff", "--cached", "--name-only"], { cwd: path })).trim();
			if (staged !== "") await git([...GIT_IDENTITY, "commit", "--quiet", "--no-verify", "-m", message], { cwd: path });
			const diffStat = (await git(["diff", "--stat", `${base}..${branch}`], { cwd: top })).trim();
			const kept = await keepIgnored(path);
			await removeWorktree(top, path, () => rmSync(path, { recursive: true, force: true }));
			return kept ? { diffStat, kept } : { diffStat };
		},
	};
}

/** Moves the files git ignores in the worktree at `path` (a folder whole) into a new folder beside it. */
async function keepIgnored(path: string): Promise<FinishedWorktree["kept"]> {
	const listed = await git(["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"], { cwd: path });
	const files = listed.split("\0").filter(Boolean);
	if (files.length === 0) return undefined;
	const folder = mkdtempSync(`${path}-ignored-`);
	try {
		for (const file of files) {
			const to = join(folder, file);
			mkdirSync(dirname(to), { recursive: true });
			renameSync(join(path, file), to);
		}
	} catch (error) {
		throw new Error(`Could not move the files git ignores from the worktree ${path} to ${folder} (${(error as Error).message}); both folders are left as they are.`);
	}
	return { folder, files };
}

/** The first of `wanted`, `wanted-2`, … that no branch or folder has yet, added (parallel children may want one name). */
async function addFreeWorktree(top: string, root: string, wanted: string): Promise<{ branch: string; path: string }> {
	for (let n = 1; ; n++) {
		const branch = n === 1 ? wanted : `${wanted}-${n}`;
		const path = join(root, slug(branch));
		if (existsSync(path) || (await branchExists(top, branch))) continue;
		try {
			await addWorktree(top, path, branch);
			return { branch, path };
		} catch (error) {
			// Taken meanwhile by another child of this batch: the next name.
			if (n >= 50 || !/already exists/i.test(String((error as Error).message))) throw error;
		}
	}
}

async function branchExists(top: string, branch: string): Promise<boolean> {
	return git(["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`], { cwd: top }).then(
		() => true,
		() => false,
	);
}

/** loom's branches of the repository holding `cwd`, each with what it changed against the current HEAD's merge base. */
export async function loomBranches(cwd: string): Promise<{ branch: string; diffStat: string }[]> {
	const top = await repository(cwd);
	const names = (await git(["for-each-ref", "--format=%(refname:short)", `refs/heads/${BRANCH_PREFIX}`], { cwd: top })).split("\n").filter(Boolean);
	return Promise.all(
		names.map(async (branch) => {
			const stat = await git(["diff", "--shortstat", `HEAD...${branch}`], { cwd: top }).catch(() => "");
			return { branch, diffStat: stat.trim() || "no changes" };
		}),
	);
}

/** Merges a loom branch into the current branch of the tree holding `cwd` (a merge commit), then deletes it. */
export async function mergeBranch(cwd: string, branch: string): Promise<string> {
	const top = await repository(cwd);
	checkLoomBranch(branch);
	const out = await git([...GIT_IDENTITY, "merge", "--no-ff", "--no-edit", "-m", `Merge ${branch}`, branch], { cwd: top });
	await git(["branch", "-D", branch], { cwd: top });
	return out.trim();
}

/** Deletes a loom branch and what it holds. */
export async function discardBranch(cwd: string, branch: string): Promise<void> {
	const top = await repository(cwd);
	checkLoomBranch(branch);
	await git(["branch", "-D", branch], { cwd: top });
}

function checkLoomBranch(branch: string): void {
	if (!branch.startsWith(BRANCH_PREFIX)) throw new Error(`${branch} is not one of loom's branches (they start with ${BRANCH_PREFIX}); see /worktrees.`);
}
