// Which directory a project's checkpoints record: the top of the git repository the working directory is in
// (so every .gitignore of the repository applies as git applies it), or the working directory itself.
import { createHash } from "node:crypto";
import { homedir } from "node:os";
import { isAbsolute, join, parse, resolve } from "node:path";
import { realpathOrSelf } from "../../core/index.js";
import { runGit } from "./git.js";

export interface ProjectRoot {
	/** The directory recorded (real path). */
	workTree: string;
	/** The user's own git directory shared by its worktrees, whose info/exclude also applies; undefined outside git. */
	userGitDir?: string;
}

/**
 * Asks git (read-only, without taking any lock) where the repository holding `cwd` starts, once per process. Outside a repository,
 * or where git cannot say, the working directory is the root.
 */
export function findProjectRoot(cwd: string): Promise<ProjectRoot> {
	const here = realPath(cwd);
	let root = roots.get(here);
	if (!root) roots.set(here, (root = askGit(here)));
	return root;
}

/** Asked once per directory and process: every session of a process shares the answer. */
const roots = new Map<string, Promise<ProjectRoot>>();

async function askGit(here: string): Promise<ProjectRoot> {
	try {
		const { stdout } = await runGit(["rev-parse", "--show-toplevel", "--git-common-dir"], { cwd: here, timeoutMs: 10_000 });
		const [top, common] = stdout.toString("utf8").split("\n");
		if (!top) return { workTree: here };
		return { workTree: realPath(top), userGitDir: common ? resolve(here, common) : undefined };
	} catch {
		return { workTree: here };
	}
}

/**
 * Why a directory is not worth recording as a whole (a home directory or a filesystem root holds far more than
 * one project), or undefined when it is.
 */
export function notAProject(workTree: string, home: string = homedir()): string | undefined {
	if (workTree === parse(workTree).root) return `${workTree} is the root of the filesystem`;
	if (sameDir(workTree, home)) return `${workTree} is your home directory`;
	return undefined;
}

/** The folder name of a project's checkpoints: a hash of its recorded directory. */
export function projectKey(workTree: string): string {
	return createHash("sha256").update(workTree).digest("hex").slice(0, 16);
}

export function checkpointsRoot(loomHome: string): string {
	return join(loomHome, "checkpoints");
}

function sameDir(a: string, b: string): boolean {
	return isAbsolute(b) && realPath(a) === realPath(b);
}

/** The real path, or the absolute path where there is none (it does not exist). */
function realPath(path: string): string {
	return realpathOrSelf(resolve(path));
}
