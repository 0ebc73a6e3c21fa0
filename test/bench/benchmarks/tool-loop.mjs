// The tool loop's client side. The first bash call of a process must not wait for the shell grammar (loaded and
// warmed beside the model's first request). And a turn of bash calls — the model's answer parsed, `true` run,
// the next request sent — measured at the scripted server as the time between two requests, loom beside Pi
// 0.73.1 where Pi is installed (LOOM_BENCH_PI names its `pi`, else /tmp/pi or the PATH; skipped without it).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startScriptedModelServer } from "../../support/scripted-model-server.mjs";
import { loomBin, ms, runProcess, summarize } from "../lib.mjs";
import { piBin, writePiAgentDir } from "../pi.mjs";
import { runProbe } from "../probes/run-probe.mjs";

/** A quick model's first answer: the preload has this long. */
const MODEL_MS = 300;

/** One run of `turns` bash calls; the client time of each turn, from the requests' arrival times. */
async function run(server, command, args, env, turns, cwd) {
	const start = server.requests.length;
	const result = await runProcess(command, args, { cwd, env: { ...process.env, ...env } });
	if (result.code !== 0) throw new Error(`${path.basename(command)} exited ${result.code}: ${result.stderr.slice(-500)}`);
	const requests = server.requests.slice(start);
	if (requests.length !== turns + 1) throw new Error(`${path.basename(command)} made ${requests.length} requests, expected ${turns + 1}`);
	const gaps = requests.slice(1).map((request, index) => request.receivedAt - requests[index].receivedAt);
	return { mean: gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length, median: summarize(gaps).median, first: gaps[0] };
}

export default {
	name: "tool loop",
	async run({ smoke }) {
		const runs = smoke ? 1 : 5;
		const cpu = [];
		const samples = (preload) =>
			sequence(runs, async () => {
				const result = await runProbe("first-bash", { preload, delay: MODEL_MS, settleMs: smoke ? 100 : 1000 });
				if (preload) cpu.push(result.cpuMs);
				return result.ms;
			});
		const warm = summarize(await samples(true));
		const cold = summarize(await samples(false));
		const grammarCpu = summarize(cpu).median;
		const rows = [
			{
				metric: "first bash call",
				workload: `reading its line for the policy, ${MODEL_MS} ms after the session was assembled; without the preload: ${ms(cold.median)}`,
				...warm,
				format: ms,
				target: "< 10 ms",
				pass: warm.median < 10,
			},
			{
				metric: "shell grammar, CPU",
				workload: "loading, warming and reading that line, background compiling included (V8 compiles it once, baseline only)",
				value: grammarCpu,
				format: ms,
				target: "< 400 ms",
				pass: grammarCpu < 400,
			},
		];

		const home = mkdtempSync(path.join(os.tmpdir(), "loom-bench-loop-"));
		const server = await startScriptedModelServer({
			respond(body) {
				const wanted = Number(/turns=(\d+)/.exec(JSON.stringify(body.messages))?.[1] ?? 0);
				const done = (body.messages ?? []).filter((message) => message.role === "tool").length;
				return done < wanted ? { toolCalls: [{ name: "bash", arguments: { command: "true" } }] } : { text: "done" };
			},
		});
		try {
			const pi = piBin();
			const piDir = path.join(home, "pi");
			if (pi) writePiAgentDir(piDir, server.openaiBaseUrl);
			const cwd = path.join(home, "project");
			mkdirSync(cwd, { recursive: true });
			const ratios = [];
			for (const turns of smoke ? [3] : [30, 200]) {
				const prompt = `run true, turns=${turns}`;
				const loomArgs = [loomBin, "-p", prompt, "--no-session", "--no-context-files", "--provider", "openai", "--model", "scripted", "--base-url", server.openaiBaseUrl, "--api-key", "k", "--tools", "bash"];
				const piArgs = ["-p", prompt, "--no-session", "--provider", "bench", "--model", "scripted", "--tools", "bash", "--no-extensions", "--no-skills", "--no-context-files"];
				const loom = [];
				const boxed = [];
				const other = [];
				const loomEnv = { LOOM_HOME: path.join(home, "loom") };
				// In turn, loom then Pi: pairing keeps the ratio meaningful while the machine's speed drifts. Pi has no
				// sandbox, so loom is compared with its sandbox off; its sandboxed figure is reported beside.
				for (let i = 0; i < (smoke ? 1 : 3); i++) {
					loom.push(await run(server, process.execPath, [...loomArgs, "--sandbox", "off"], loomEnv, turns, cwd));
					if (pi) other.push(await run(server, pi, piArgs, { PI_CODING_AGENT_DIR: piDir, PI_OFFLINE: "1" }, turns, cwd));
					boxed.push(await run(server, process.execPath, loomArgs, loomEnv, turns, cwd));
				}
				const figures = (runs) => ({
					mean: summarize(runs.map((one) => one.mean)),
					median: summarize(runs.map((one) => one.median)).median,
					first: summarize(runs.map((one) => one.first)).median,
				});
				const mine = figures(loom);
				const theirs = pi ? figures(other) : undefined;
				const sandboxed = figures(boxed);
				const ratio = theirs === undefined ? undefined : mine.mean.median / theirs.mean.median;
				if (ratio !== undefined) ratios.push(ratio);
				const piText = theirs === undefined ? "Pi not installed: no ratio" : `Pi: ${ms(theirs.mean.median)} (median ${ms(theirs.median)}, first ${ms(theirs.first)}); loom/Pi ${ratio.toFixed(2)}×`;
				rows.push({
					metric: `turn, ${turns} turns`,
					workload: `client time a turn of bash \`true\` (request to request at the server), mean, --sandbox off; median ${ms(mine.median)}, first ${ms(mine.first)}; ${piText}`,
					...mine.mean,
					format: ms,
					target: "≤ 0.7× Pi",
					...(ratio === undefined ? {} : { pass: ratio <= 0.7 }),
				});
				rows.push({
					metric: `turn, ${turns}, sandboxed`,
					workload: `the same inside the sandbox (bubblewrap where it runs); median ${ms(sandboxed.median)}, first ${ms(sandboxed.first)}`,
					...sandboxed.mean,
					format: ms,
					target: "(reported)",
				});
			}
			if (ratios.length > 1) {
				const average = ratios.reduce((sum, one) => sum + one, 0) / ratios.length;
				// The issue's target: the two lengths' ratios averaged.
				rows.push({ metric: "turn, loom/Pi averaged", workload: `the ${ratios.length} lengths' ratios (${ratios.map((one) => one.toFixed(2)).join(", ")}) averaged`, value: average, format: (value) => `${value.toFixed(2)}×`, target: "≤ 0.7×", pass: average <= 0.7 });
			}
		} finally {
			await server.close();
			rmSync(home, { recursive: true, force: true });
		}
		return rows;
	},
};

async function sequence(count, fn) {
	const out = [];
	for (let i = 0; i < count; i++) out.push(await fn(i));
	return out;
}
