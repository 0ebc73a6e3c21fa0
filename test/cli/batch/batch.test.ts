// `loom batch` end to end: 10 tasks, 4 at once, each in its own worktree, results with their diffs; interrupted
// with SIGINT and run again, the finished tasks are not run again. Tasks whose ids read alike as file names get
// folders of their own, and the key reaches the tasks' looms without showing on their command lines.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../support/temp-dir.js";
import { serverFlags, startLoom, useScriptedServer } from "../../support/loom-process.js";
import { gitProject, readResults, taskOf, taskResponder, writeTasks } from "../../support/batch-tasks.js";

const server = useScriptedServer();

describe("loom batch", () => {
	it("runs 10 tasks 4 at once in their own worktrees, stops at SIGINT keeping the finished results, and reruns only the rest", async () => {
		const root = tempDir("loom-batch-");
		const home = join(root, "home");
		execFileSync("mkdir", ["-p", join(root, "project"), home]);
		gitProject(join(root, "project"));
		const tasks = writeTasks(root, 10);
		const results = join(root, "results.jsonl");
		const flags = ["batch", tasks, "--jobs", "4", ...serverFlags(server.openaiBaseUrl)];

		// t1…t4 finish; the others (six, more than --jobs) hang until the batch is interrupted.
		const late = (id: string) => Number(id.slice(1)) > 4;
		server.setResponder(taskResponder((id) => (late(id) ? { text: "never", hangMs: 120_000 } : undefined)));
		const first = startLoom(flags, { cwd: root, home });
		await expect.poll(() => readResults(results).length, { timeout: 300_000 }).toBe(4);
		// Four of the late ones are waiting on the model: the batch never runs more than --jobs at once.
		await expect.poll(() => new Set(server.requests.map((r) => taskOf(r.body)).filter((id) => id && late(id))).size, { timeout: 300_000 }).toBe(4);
		first.child.kill("SIGINT");
		const stopped = await first.done;
		expect(stopped.code).toBe(130);
		expect(readResults(results).map((r) => r.id).sort()).toEqual(["t1", "t2", "t3", "t4"]);

		server.reset();
		server.setResponder(taskResponder());
		const second = await startLoom(flags, { cwd: root, home }).done;
		expect(second.stderr).toContain("(4 done before)");
		expect(second.code).toBe(0);
		const all = readResults(results);
		expect(all).toHaveLength(10);
		expect(new Set(all.map((r) => r.id)).size).toBe(10);
		// The rerun asked the model nothing about the finished tasks.
		const asked = new Set(server.requests.map((r) => taskOf(r.body)));
		for (const id of ["t1", "t4"]) expect(asked.has(id)).toBe(false);
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

	it("gives tasks whose ids read alike as file names (a/b, a_b) folders of their own, and passes --api-key in the environment, not on the tasks' command lines", async () => {
		const root = tempDir("loom-batch-");
		const home = join(root, "home");
		execFileSync("mkdir", ["-p", join(root, "project"), home]);
		gitProject(join(root, "project"));
		const ids = ["a/b", "a_b"];
		const tasks = join(root, "tasks.jsonl");
		writeFileSync(tasks, ids.map((id) => JSON.stringify({ id, prompt: `job ${id}: write the file`, cwd: "project" })).join("\n"));
		const jobOf = (body: any) => /job (\S+):/.exec(JSON.stringify(body.messages?.find((message: any) => message.role === "user") ?? ""))?.[1];
		// Both tasks' first requests are held until both have come: the two run at once, each in its folder.
		let bothAsked = () => {};
		const asked = new Promise<void>((resolve) => (bothAsked = resolve));
		const firsts = new Set<string>();
		server.setResponder(async (body) => {
			const id = jobOf(body);
			if (!id) return undefined;
			if (body.messages.at(-1)?.role === "tool") return { text: `done ${id}` };
			firsts.add(id);
			if (firsts.size === ids.length) bothAsked();
			await asked;
			return { toolCalls: [{ name: "write", arguments: { path: "out.txt", content: `${id}\n` } }] };
		});
		const results = join(root, "results.jsonl");
		const batch = startLoom(["batch", tasks, "--jobs", "2", ...serverFlags(server.openaiBaseUrl)], { cwd: root, home });
		try {
			// Both asking, or one task ended without asking (its folder could not be made: it was the other's).
			await expect.poll(() => firsts.size === 2 || readResults(results).length > 0, { timeout: 300_000 }).toBe(true);
			expect(readResults(results)).toEqual([]);
			// The tasks' looms, as any user of the machine sees them: no key on their command lines; in their
			// environment (readable by their own user alone) it is.
			const looms = execFileSync("ps", ["-o", "pid=", "--ppid", String(batch.child.pid)], { encoding: "utf8" }).split("\n").map(Number).filter(Boolean);
			expect(looms).toHaveLength(2);
			for (const pid of looms) {
				const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
				expect(argv).toContain("--base-url");
				expect(argv.join(" ")).not.toContain("test-key");
				expect(readFileSync(`/proc/${pid}/environ`, "utf8").split("\0")).toContain("LOOM_API_KEY=test-key");
			}
		} finally {
			bothAsked();
		}
		const done = await batch.done;
		const all = readResults(results);
		expect(done.code, `${done.stderr}\n${JSON.stringify(all)}`).toBe(0);
		expect(all.map((result) => result.id).sort()).toEqual(ids);
		for (const result of all) {
			expect(result).toMatchObject({ status: "done", answer: `done ${result.id}` });
			// Each diff is its own task's write alone: the two never shared a folder.
			expect(result.diff).toContain(`+${result.id}\n`);
			expect(result.diff.match(/^\+\+\+ /gm)).toHaveLength(1);
		}
	}, 600_000);
});
