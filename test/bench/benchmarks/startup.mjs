// Whole-process start: what a developer waits for before loom does anything.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startScriptedModelServer } from "../../support/scripted-model-server.mjs";
import { loomBin, ms, repeat, runProcess } from "../lib.mjs";

export default {
	name: "startup",
	async run({ smoke }) {
		const runs = smoke ? 1 : 10;
		const home = mkdtempSync(path.join(os.tmpdir(), "loom-bench-home-"));
		const env = { ...process.env, LOOM_HOME: home };
		const server = await startScriptedModelServer({ defaultTurn: { text: "hello" } });
		try {
			const timed = (args) =>
				repeat(runs, async () => {
					const result = await runProcess(process.execPath, [loomBin, ...args], { env });
					if (result.code !== 0) throw new Error(`loom ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
					return result.ms;
				});
			const nodeAlone = await repeat(runs, async () => (await runProcess(process.execPath, ["-e", "0"])).ms);
			const version = await timed(["--version"]);
			const help = await timed(["--help"]);
			const oneShot = await timed(["-p", "hi", "--no-session", "--provider", "openai", "--base-url", server.openaiBaseUrl, "--api-key", "bench"]);
			const note = `bare \`node -e 0\` takes ${ms(nodeAlone.median)} here`;
			return [
				{ metric: "loom --version", workload: "whole process", ...version, format: ms, target: "< 100 ms", pass: version.median < 100, note },
				{ metric: "loom --help", workload: "whole process", ...help, format: ms, target: "< 100 ms", pass: help.median < 100 },
				{ metric: "one-shot round trip", workload: 'loom -p "hi" --no-session, local server answering at once', ...oneShot, format: ms, target: "< 300 ms", pass: oneShot.median < 300 },
			];
		} finally {
			await server.close();
			rmSync(home, { recursive: true, force: true });
		}
	},
};
