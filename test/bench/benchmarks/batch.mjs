// `loom batch` throughput against the scripted model server: tasks a minute with 1 job, 4 jobs, and two
// `loom worker`s × 2 jobs sharing a real redis-server. Each task is one write and one answer; the figure is what
// loom adds around a model (a process per task, its worktree, its diff).
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { loomBin, runProcess } from "../lib.mjs";
import { startScriptedModelServer } from "../../support/scripted-model-server.mjs";

function taskOf(body) {
	return /task (t\d+)/.exec(JSON.stringify(body.messages?.find((message) => message.role === "user") ?? ""))?.[1];
}

function project(root, count) {
	const dir = path.join(root, "project");
	mkdirSync(dir);
	writeFileSync(path.join(dir, "README.md"), "project\n");
	const git = (...args) => execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", ...args], { cwd: dir, stdio: "ignore" });
	git("init", "-q");
	git("add", "-A");
	git("commit", "-qm", "start");
	const tasks = Array.from({ length: count }, (_, i) => JSON.stringify({ id: `t${i + 1}`, prompt: `task t${i + 1}: write`, cwd: "project" }));
	writeFileSync(path.join(root, "tasks.jsonl"), `${tasks.join("\n")}\n`);
}

function freePort() {
	return new Promise((resolve) => {
		const server = createServer().listen(0, "127.0.0.1", () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

async function startRedis() {
	const port = await freePort();
	const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: ["ignore", "pipe", "ignore"] });
	await new Promise((resolve, reject) => {
		let out = "";
		child.stdout.on("data", (chunk) => (out += chunk) && out.includes("Ready to accept connections") && resolve());
		child.once("exit", () => reject(new Error("redis-server exited")));
	});
	return { url: `redis://127.0.0.1:${port}/0`, stop: () => child.kill("SIGKILL") };
}

export default {
	name: "batch",
	async run({ smoke }) {
		const count = smoke ? 2 : 12;
		const server = await startScriptedModelServer({
			respond: (body) => {
				const id = taskOf(body);
				if (!id) return undefined;
				if (body.messages.at(-1)?.role === "tool") return { text: `done ${id}` };
				return { toolCalls: [{ name: "write", arguments: { path: `${id}.txt`, content: `${id}\n` } }] };
			},
		});
		const flags = ["--provider", "openai", "--model", "scripted", "--base-url", server.openaiBaseUrl, "--api-key", "k"];
		const env = (home) => ({ PATH: process.env.PATH, HOME: home, LOOM_HOME: home });
		/** Tasks a minute for one batch in a fresh folder; `around` starts and stops whatever the batch needs. */
		const measure = async (args, around = async (run) => run()) => {
			const root = mkdtempSync(path.join(os.tmpdir(), "loom-bench-batch-"));
			try {
				project(root, count);
				const home = path.join(root, "home");
				mkdirSync(home);
				const result = await around(() => runProcess(process.execPath, [loomBin, "batch", "tasks.jsonl", ...args, ...flags], { cwd: root, env: env(home) }), { root, home });
				const failed = () => new Error(`batch ${args.join(" ")} exited ${result.code}: ${result.stderr.slice(-500)}`);
				if (result.code !== 0 || !existsSync(path.join(root, "results.jsonl"))) throw failed();
				const lines = readFileSync(path.join(root, "results.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
				if (lines.length !== count || lines.some((line) => line.status !== "done")) throw failed();
				return (count / result.ms) * 60_000;
			} finally {
				rmSync(root, { recursive: true, force: true });
			}
		};
		const perMinute = (value) => `${value.toFixed(0)} tasks/min`;
		const workload = `${count} tasks (a write, then the answer) against the scripted server`;
		try {
			const one = await measure(["--jobs", "1"]);
			const four = await measure(["--jobs", "4"]);
			const rows = [
				{ metric: "batch, 1 job", workload, value: one, format: perMinute, target: "(reference)" },
				{ metric: "batch, 4 jobs", workload, value: four, format: perMinute, target: "faster than 1 job", pass: four > one },
			];
			if (!smoke) {
				const redis = await startRedis();
				try {
					const workers = await measure(["--queue", redis.url], async (run, { root, home }) => {
						const started = [0, 1].map(() =>
							spawn(process.execPath, [loomBin, "worker", "--queue", redis.url, "--jobs", "2", ...flags], { cwd: root, env: env(home), stdio: "ignore" }),
						);
						try {
							return await run();
						} finally {
							for (const worker of started) worker.kill("SIGTERM");
						}
					});
					rows.push({ metric: "batch, 2 workers × 2", workload: `${workload}, through redis-server`, value: workers, format: perMinute, target: "faster than 1 job", pass: workers > one });
				} finally {
					redis.stop();
				}
			}
			return rows;
		} finally {
			await server.close();
		}
	},
};
