// `loom batch --queue` and `loom worker` with a real redis-server: two workers share 10 tasks; one is killed with
// SIGKILL (its task's loom with it) while it holds tasks, and BullMQ's stalled-job recovery gives them to the
// other; the submitting batch writes exactly 10 results. A worker stopped gracefully (SIGTERM) hands its job back
// to the queue without using up one of the task's attempts.
import { execFileSync } from "node:child_process";
import { mkdirSync, readlinkSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../../support/temp-dir.js";
import { serverFlags, startLoom, useScriptedServer } from "../../support/loom-process.js";
import { gitProject, readResults, taskOf, taskResponder, writeTasks } from "../../support/batch-tasks.js";
import { type RedisServer, startRedis } from "../../support/redis-server.js";
import { QUEUE_NAME } from "../../../src/cli/batch/queue.js";

const server = useScriptedServer();
let redis: RedisServer;
beforeAll(async () => {
	redis = await startRedis();
});
afterAll(() => redis?.stop());

/** The pids of a process's children. */
function childrenOf(pid: number): number[] {
	try {
		return execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" }).split("\n").map(Number).filter(Boolean);
	} catch {
		return [];
	}
}

describe("loom batch --queue with loom workers", () => {
	it("two workers share 10 tasks; one killed mid-task, its tasks finish on the other; results.jsonl holds exactly 10", async () => {
		const root = tempDir("loom-queue-");
		const home = join(root, "home");
		mkdirSync(join(root, "project"));
		mkdirSync(home);
		gitProject(join(root, "project"));
		const tasks = writeTasks(root, 10);
		const results = join(root, "results.jsonl");

		// t1…t6 run freely; t7…t10 wait for the release, so each worker is mid-task with two when one is killed.
		let release = () => {};
		const released = new Promise<void>((resolve) => (release = resolve));
		let held = 0;
		const open = taskResponder();
		server.setResponder(async (body, index, request) => {
			const turn = await open(body, index, request);
			const id = taskOf(body);
			if (id !== undefined && Number(id.slice(1)) > 6 && body.messages.at(-1)?.role !== "tool") {
				held++;
				await released;
			}
			return turn;
		});
		const workerFlags = ["worker", "--queue", redis.url, "--jobs", "2", "--lock-ms", "2000", ...serverFlags(server.openaiBaseUrl)];
		const [a, b] = [startLoom(workerFlags, { cwd: root, home }), startLoom(workerFlags, { cwd: root, home })];
		const batch = startLoom(["batch", tasks, "--queue", redis.url], { cwd: root, home });
		try {
			// Four held: each worker (2 at once) is mid-task with two tasks.
			await expect.poll(() => held, { timeout: 300_000 }).toBe(4);
			// A machine lost: the worker and its tasks' looms, without a word to the queue. A task's loom works in
			// <work folder>/<task id>-XXXXXX/<task id> (the project is its repository's top): its working directory
			// names the task.
			const orphans = childrenOf(a.child.pid!);
			expect(orphans).toHaveLength(2);
			const heldByA = orphans.map((pid) => basename(readlinkSync(`/proc/${pid}/cwd`)));
			a.child.kill("SIGKILL");
			for (const pid of orphans) process.kill(pid, "SIGKILL");
			await a.done;
			release();
			const submitted = await batch.done;
			const all = readResults(results);
			expect(submitted.code, `${submitted.stderr}\n${JSON.stringify(all.filter((result) => result.status !== "done"))}`).toBe(0);
			expect(all).toHaveLength(10);
			expect(new Set(all.map((result) => result.id)).size).toBe(10);
			for (const result of all) {
				expect(result.status).toBe("done");
				expect(result.diff).toContain(`+++ b/${result.id}.txt`);
			}
			// The killed worker's two tasks ended on the other worker.
			expect(heldByA).toHaveLength(2);
			for (const id of heldByA) expect(all.find((result) => result.id === id)).toMatchObject({ status: "done", pid: b.child.pid });
		} finally {
			release();
			for (const run of [a, b, batch]) if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
			await Promise.all([a.done, b.done, batch.done]);
		}
	}, 900_000);

	it("a worker stopped with SIGTERM mid-task hands the job back at once, without using one of its attempts; another worker finishes it", async () => {
		const root = tempDir("loom-queue-");
		const home = join(root, "home");
		mkdirSync(join(root, "project"));
		mkdirSync(home);
		gitProject(join(root, "project"));
		const tasks = writeTasks(root, 1);
		// The task's first request waits until the test lets it go; every later one is answered at once.
		let release = () => {};
		const released = new Promise<void>((resolve) => (release = resolve));
		let asked = 0;
		const open = taskResponder();
		server.setResponder(async (body, index, request) => {
			if (taskOf(body) === "t1" && asked++ === 0) await released;
			return open(body, index, request);
		});
		const workerFlags = ["worker", "--queue", redis.url, "--jobs", "1", ...serverFlags(server.openaiBaseUrl)];
		const stopped = startLoom(workerFlags, { cwd: root, home });
		const batch = startLoom(["batch", tasks, "--queue", redis.url], { cwd: root, home });
		const { Queue } = await import("bullmq");
		const queue = new Queue(QUEUE_NAME, { connection: { url: redis.url } as any });
		let finisher: ReturnType<typeof startLoom> | undefined;
		try {
			await expect.poll(() => asked, { timeout: 300_000 }).toBe(1);
			stopped.child.kill("SIGTERM");
			expect((await stopped.done).code).toBe(143);
			const [job] = (await queue.getJobs(["waiting", "delayed", "active", "failed", "completed"])).filter((job) => job.data.task.cwd.startsWith(root));
			expect(job).toBeDefined();
			expect({ state: await job!.getState(), attemptsMade: job!.attemptsMade }).toEqual({ state: "waiting", attemptsMade: 0 });
			release();
			finisher = startLoom(workerFlags, { cwd: root, home });
			const submitted = await batch.done;
			const all = readResults(join(root, "results.jsonl"));
			expect(submitted.code, `${submitted.stderr}\n${JSON.stringify(all)}`).toBe(0);
			expect(all).toHaveLength(1);
			expect(all[0]).toMatchObject({ id: "t1", status: "done", pid: finisher.child.pid });
		} finally {
			release();
			await queue.close();
			for (const run of [stopped, batch, finisher]) if (run && run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
			await Promise.all([stopped.done, batch.done, finisher?.done]);
		}
	}, 600_000);
});
