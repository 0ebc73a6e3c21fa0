// The tools under load: a command printing a lot, a large file edited, a very large file read near its end.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { mb, ms, repeat, runProcess } from "../lib.mjs";
import { runProbe } from "../probes/run-probe.mjs";

const LINE_BYTES = 70; // "line 000000000: some ordinary source text that goes on for a while;\n"

async function makeFile(dir, name, bytes) {
	const lines = Math.floor(bytes / LINE_BYTES);
	const file = path.join(dir, name);
	const script = `awk 'BEGIN { for (i = 0; i < ${lines}; i++) printf "line %09d: some ordinary source text that goes on for a while;\\n", i }' > '${file}'`;
	const { code } = await runProcess("sh", ["-c", script]);
	if (code !== 0) throw new Error("could not create the test file");
	return { file, lines };
}

export default {
	name: "tool I/O",
	async run({ smoke }) {
		const runs = smoke ? 1 : 3;
		const loudBytes = smoke ? 20e6 : 1e9;
		const loud = [];
		const loudTimes = await repeat(runs, async () => {
			const result = await runProbe("loud-command", { bytes: loudBytes });
			loud.push(result);
			return result.ms;
		});
		const cat = await repeat(runs, async () => {
			const { ms: wall } = await runProcess("sh", ["-c", `yes 'the quick brown fox jumps over the lazy dog 0123456789' | head -c ${loudBytes} | cat > /dev/null`]);
			return wall;
		});
		const loudRss = Math.max(...loud.map((r) => r.peakRss));

		const dir = mkdtempSync(path.join(os.tmpdir(), "loom-bench-io-"));
		try {
			const editFile = await makeFile(dir, "edit.txt", smoke ? 1e6 : 20e6);
			const edit = await repeat(runs, async (run) => (await runProbe("big-files", { op: "edit", run, ...editFile })).ms);
			const readFile = await makeFile(dir, "read.txt", smoke ? 5e6 : 200e6);
			const reads = [];
			const read = await repeat(runs, async () => {
				const result = await runProbe("big-files", { op: "read", ...readFile });
				reads.push(result);
				return result.ms;
			});
			const readGrowth = Math.max(...reads.map((r) => r.peakRss - r.baselineRss));
			const size = (bytes) => `${bytes / 1e6} MB`;
			return [
				{ metric: "loud command, wall", workload: `bash tool: yes | head -c ${size(loudBytes)} (cat to /dev/null: ${ms(cat.median)})`, ...loudTimes, format: ms, target: "within 2× of cat", pass: loudTimes.median <= 2 * cat.median },
				{ metric: "loud command, peak RSS", workload: `same; whole process, peak`, value: loudRss, format: mb, target: "< 150 MB", pass: loudRss < 150 * 2 ** 20 },
				{ metric: "edit one line", workload: `edit tool, one line in the middle of a ${size(smoke ? 1e6 : 20e6)} file`, ...edit, format: ms, target: "< 300 ms", pass: edit.median < 300 },
				{ metric: "read near the end", workload: `read tool, offset near the end of a ${size(smoke ? 5e6 : 200e6)} file`, ...read, format: ms, target: "< 500 ms", pass: read.median < 500 },
				{ metric: "read, RSS growth", workload: "same; peak RSS minus the process's RSS before the read", value: readGrowth, format: mb, target: "not proportional to file", pass: readGrowth < 50 * 2 ** 20 },
			];
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	},
};
