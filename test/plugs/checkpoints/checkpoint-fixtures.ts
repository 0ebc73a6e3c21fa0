// Helpers for checkpoint tests: a project on disk, a checkpointer for it, one prompt's run at a time, and the
// state of a directory (every file's content, links and modes) to compare before and after.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import type { FilesRestore } from "../../../src/core/session/file-checkpoints.js";
import type { SnapshotLimits } from "../../../src/plugs/checkpoints/changed-files.js";
import { Checkpointer } from "../../../src/plugs/checkpoints/checkpointer.js";
import { writeTree } from "../../support/project-tree.js";
import { workspace } from "../../support/temp-dir.js";

export interface Project {
	cwd: string;
	home: string;
	notices: string[];
	checkpointer: Checkpointer;
	/** Runs one prompt: the run starts, `work` changes files (told which it changes, as tools tell), the run ends. */
	prompt(id: string, work: (tell: (paths: string[]) => Promise<void>) => Promise<void> | void): Promise<void>;
	/** Runs one prompt whose tools only read: no call that may change files comes. */
	promptReading(id: string): Promise<void>;
	/** The restore to just before prompt `id`; fails the test when there is none. */
	restoreTo(id: string): Promise<FilesRestore>;
}

export function makeProject(files: Record<string, string> = {}, limits?: Partial<SnapshotLimits>, sessionId = "session-1"): Project {
	const { cwd, home } = workspace();
	writeTree(cwd, files);
	const notices: string[] = [];
	const checkpointer = new Checkpointer({
		home,
		cwd,
		limits,
		session: () => ({ id: sessionId, file: join(home, "sessions", `${sessionId}.jsonl`) }),
		notify: (_level, text) => notices.push(text),
	});
	return {
		cwd,
		home,
		notices,
		checkpointer,
		async prompt(id, work) {
			checkpointer.beginRun();
			checkpointer.bindPrompt(id);
			// As the before-chain does for every call that may change files (a bash call names none).
			await checkpointer.beforeChange([]);
			await work((paths) => checkpointer.beforeChange(paths));
			checkpointer.endRun();
			await checkpointer.settled();
		},
		async promptReading(id) {
			checkpointer.beginRun();
			checkpointer.bindPrompt(id);
			await checkpointer.endRun();
			await checkpointer.settled();
		},
		async restoreTo(id) {
			const restore = await checkpointer.prepare(id);
			if (typeof restore === "string") throw new Error(`no restore: ${restore}`);
			return restore;
		},
	};
}

/** Every entry under `root` (except .git folders when asked): file contents, link targets, modes. */
export function treeState(root: string, options: { skipGit?: boolean } = {}): Record<string, string> {
	const state: Record<string, string> = {};
	const walk = (dir: string, prefix: string) => {
		for (const name of readdirSync(dir).sort()) {
			if (options.skipGit && name === ".git") continue;
			const path = join(dir, name);
			const rel = prefix ? `${prefix}/${name}` : name;
			const stat = lstatSync(path);
			if (stat.isSymbolicLink()) state[rel] = `link → ${readlinkSync(path)}`;
			else if (stat.isDirectory()) {
				state[`${rel}/`] = "dir";
				walk(path, rel);
			} else state[rel] = `${(stat.mode & 0o777).toString(8)} ${createHash("sha256").update(readFileSync(path)).digest("hex").slice(0, 16)}`;
		}
	};
	walk(root, "");
	return state;
}

/** Runs git in a user's own repository (test setup only). */
export function userGit(cwd: string, ...args: string[]): string {
	return execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "init.defaultBranch=main", ...args], {
		cwd,
		encoding: "utf8",
		env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" },
	});
}
