// A worktree's end: its tracked changes are committed on its branch, and the files git ignores (which no commit
// carries) are kept in a folder of their own, named in the result, before the worktree is removed.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startBranchWorktree } from "../../../src/plugs/worktrees/index.js";
import { workspace } from "../../support/temp-dir.js";

describe("branch worktrees", () => {
	it("keep the files git ignores in a folder named in the result when the worktree is removed", async () => {
		const ws = workspace();
		const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: ws.cwd, encoding: "utf8" });
		git("init", "--quiet");
		writeFileSync(join(ws.cwd, ".gitignore"), "out/\n.env.local\n");
		writeFileSync(join(ws.cwd, "README.md"), "old\n");
		git("add", ".");
		git("commit", "--quiet", "-m", "start");

		const worktree = await startBranchWorktree(ws.cwd, ws.home, "build");
		writeFileSync(join(worktree.cwd, "README.md"), "new\n");
		writeFileSync(join(worktree.cwd, ".env.local"), "TOKEN=x\n");
		mkdirSync(join(worktree.cwd, "out", "deep"), { recursive: true });
		writeFileSync(join(worktree.cwd, "out", "deep", "result.txt"), "42\n");
		const finished = await worktree.finish("build: it");

		expect(git("show", `${worktree.branch}:README.md`)).toBe("new\n");
		expect(existsSync(worktree.path)).toBe(false);
		expect(finished.kept).toBeDefined();
		const kept = finished.kept!;
		expect([...kept.files].sort()).toEqual([".env.local", "out/"]);
		expect(readFileSync(join(kept.folder, ".env.local"), "utf8")).toBe("TOKEN=x\n");
		expect(readFileSync(join(kept.folder, "out", "deep", "result.txt"), "utf8")).toBe("42\n");

		// Nothing ignored: nothing kept.
		const clean = await startBranchWorktree(ws.cwd, ws.home, "clean");
		expect((await clean.finish("clean")).kept).toBeUndefined();
	});
});
