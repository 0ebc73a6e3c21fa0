// What the sandbox costs a command: `bash -c true` spawned as the bash tool spawns it, unconfined and through the
// sandbox's launcher (bubblewrap in workspace-write), each started afresh; the difference is the sandbox's cost.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Sandbox, findLauncher } from "../../../dist/plugs/sandbox/index.js";
import { ms, repeat, runProcess } from "../lib.mjs";

export default {
	name: "sandbox",
	async run({ smoke }) {
		const runs = smoke ? 3 : 30;
		const launcher = findLauncher();
		if (launcher.kind === "none") return [{ metric: "sandboxed bash -c true", workload: `no sandbox here: ${launcher.reason}`, value: 0, target: "within 15 ms of unsandboxed" }];
		const root = mkdtempSync(path.join(os.tmpdir(), "loom-bench-sandbox-"));
		try {
			const project = path.join(root, "project");
			mkdirSync(path.join(project, ".git"), { recursive: true });
			const sandbox = new Sandbox({ mode: "workspace-write", workTree: project, home: os.homedir(), tmpDir: os.tmpdir() });
			const plain = { command: "/bin/bash", args: ["-c", "true"], cwd: project };
			const confined = sandbox.confine(plain);
			const time = (spec) =>
				repeat(runs, async () => {
					const result = await runProcess(spec.command, spec.args, { cwd: spec.cwd, detached: true });
					if (result.code !== 0) throw new Error(`${spec.command} exited ${result.code}: ${result.stderr}`);
					return result.ms;
				});
			const unsandboxed = await time(plain);
			const sandboxed = await time(confined);
			return [
				{
					metric: "sandboxed bash -c true",
					workload: `workspace-write through ${launcher.path}; unsandboxed: ${ms(unsandboxed.median)}`,
					...sandboxed,
					format: ms,
					target: "within 15 ms of unsandboxed",
					pass: sandboxed.median - unsandboxed.median <= 15,
				},
			];
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	},
};
