// `loom batch` end to end: 20 tasks, 4 at once, each in its own worktree, results with their diffs; interrupted
// with SIGINT and run again, the finished tasks are not run again.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../support/temp-dir.js";
import { serverFlags, startLoom, useScriptedServer } from "../../support/loom-process.js";
import { gitProject, readResults, taskOf, taskResponder, writeTasks } from "../../support/batch-tasks.js";

const server = useScriptedServer();

describe("loom batch", () => {
	it("runs 20 tasks 4 at once in their own worktrees, stops at SIGINT keeping the finished results, and reruns only the rest", async () => {
		const root = tempDir("loom-batch-");
		const home = join(root, "home");
		execFileSync("mkdir", ["-p", join(root, "project"), home]);
		gitProject(join(root, "project"));
		const tasks = writeTasks(root, 20);
		const results = join(root, "results.jsonl");
		const flags = ["batch", tasks, "--jobs", "4", ...serverFlags(server.openaiBaseUrl)];

		// t1…t8 finish; the others hang until the batch is interrupted.
		const late = (id: string) => Number(id.slice(1)) > 8;
		server.setResponder(taskResponder((id) => (late(id) ? { text: "never", hangMs: 120_000 } : undefined)));
		const first = startLoom(flags, { cwd: root, home });
		await expect.poll(() => readResults(results).length, { timeout: 300_000 }).toBe(8);
		// Four of the late ones are waiting on the model: the batch never runs more than --jobs at once.
		await expect.poll(() => new Set(server.requests.map((r) => taskOf(r.body)).filter((id) => id && late(id))).size, { timeout: 300_000 }).toBe(4);
		first.child.kill("SIGINT");
		const stopped = await first.done;
		expect(stopped.code).toBe(130);
		expect(readResults(results).map((r) => r.id).sort()).toEqual(["t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"]);

		server.reset();
		server.setResponder(taskResponder());
		const second = await startLoom(flags, { cwd: root, home }).done;
		expect(second.stderr).toContain("(8 done before)");
		expect(second.code).toBe(0);
		const all = readResults(results);
		expect(all).toHaveLength(20);
		expect(new Set(all.map((r) => r.id)).size).toBe(20);
		// The rerun asked the model nothing about the finished tasks.
		const asked = new Set(server.requests.map((r) => taskOf(r.body)));
		for (const id of ["t1", "t8"]) expect(asked.has(id)).toBe(false);
		for (const result of all) {
			expect(result).toMatchObject({ status: "done", answer: `done ${result.id}` });
			// Each diff holds its own task's file alone: no task saw another's change.
			expect(result.diff).toContain(`+++ b/${result.id}.txt`);
			expect(result.diff.match(/^\+\+\+ /gm)).toHaveLength(1);
			expect(result.usage.totalTokens).toBeGreaterThan(0);
			expect(result.sessionFile).toContain(home);
			expect(result.durationMs).toBeGreaterThan(0);
		}
		// The project itself is untouched, and every worktree is gone.
		expect(execFileSync("git", ["status", "--porcelain"], { cwd: join(root, "project"), encoding: "utf8" })).toBe("");
		expect(execFileSync("git", ["worktree", "list"], { cwd: join(root, "project"), encoding: "utf8" }).trim().split("\n")).toHaveLength(1);
	}, 900_000);
});
