// Checkpoints: what recording the work tree costs each prompt on a 10,000-file project with a few files changed,
// and that a 1 GB ignored build folder (sparse files: no gigabytes are written) is neither listed nor read.
import { mkdirSync, mkdtempSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Checkpointer } from "../../../dist/plugs/checkpoints/checkpointer.js";
import { ms, repeat } from "../lib.mjs";

function makeTree(root, files) {
	const perDir = 100;
	for (let dir = 0; dir * perDir < files; dir++) {
		mkdirSync(path.join(root, "src", `mod${dir}`), { recursive: true });
		for (let file = 0; file < perDir && dir * perDir + file < files; file++) {
			writeFileSync(path.join(root, "src", `mod${dir}`, `file${file}.ts`), `export const value${file} = ${dir * perDir + file};\n`.repeat(20));
		}
	}
}

function checkpointer(home, cwd) {
	return new Checkpointer({ home, cwd, session: () => ({ id: "bench", file: path.join(home, "bench.jsonl") }), notify: () => {} });
}

/** One prompt as loom runs it: the run starts, the first tool call waits for the snapshot, files change, the run ends. */
async function prompt(checkpoints, change) {
	const started = process.hrtime.bigint();
	checkpoints.beginRun();
	checkpoints.bindPrompt(`p${started}`);
	await checkpoints.beforeChange([]);
	const before = Number(process.hrtime.bigint() - started) / 1e6;
	change();
	const ended = process.hrtime.bigint();
	checkpoints.endRun();
	await checkpoints.settled();
	return { before, after: Number(process.hrtime.bigint() - ended) / 1e6 };
}

export default {
	name: "checkpoints",
	async run({ smoke }) {
		const runs = smoke ? 2 : 10;
		const files = smoke ? 500 : 10_000;
		const root = mkdtempSync(path.join(os.tmpdir(), "loom-bench-checkpoints-"));
		try {
			const home = path.join(root, "home");
			const cwd = path.join(root, "project");
			mkdirSync(cwd, { recursive: true });
			makeTree(cwd, files);
			const checkpoints = checkpointer(home, cwd);
			const first = await prompt(checkpoints, () => {});
			const afters = [];
			const steady = await repeat(runs, async (run) => {
				const timing = await prompt(checkpoints, () => {
					for (let i = 0; i < 3; i++) writeFileSync(path.join(cwd, "src", `mod${i}`, `file${run}.ts`), `changed in run ${run}\n`);
				});
				afters.push(timing.after);
				return timing.before;
			});
			const after = afters.sort((a, b) => a - b)[Math.floor(afters.length / 2)];
			// A prompt whose tools only read (or that ran none): from its start to its end being recorded.
			const reading = await repeat(runs * 10, async (run) => {
				const started = process.hrtime.bigint();
				checkpoints.beginRun();
				checkpoints.bindPrompt(`r${run}`);
				await checkpoints.endRun();
				await checkpoints.settled();
				return Number(process.hrtime.bigint() - started) / 1e6;
			});
			// A call that may change files ran, and changed nothing.
			const unchanged = await repeat(runs, async () => {
				const timing = await prompt(checkpoints, () => {});
				return timing.before + timing.after;
			});

			// The same project beside a 1 GB ignored build folder.
			const bigCwd = path.join(root, "with-build");
			mkdirSync(bigCwd, { recursive: true });
			makeTree(bigCwd, smoke ? 200 : 1000);
			writeFileSync(path.join(bigCwd, ".gitignore"), "build/\n");
			const buildFiles = smoke ? 10 : 1024;
			mkdirSync(path.join(bigCwd, "build"));
			const old = new Date("2001-01-01T00:00:00Z");
			const older = new Date("2000-01-01T00:00:00Z");
			for (let i = 0; i < buildFiles; i++) {
				const file = path.join(bigCwd, "build", `object-${i}.o`);
				writeFileSync(file, "");
				truncateSync(file, 1024 * 1024);
				utimesSync(file, older, old);
			}
			utimesSync(path.join(bigCwd, "build"), older, old);
			const withBuild = checkpointer(home, bigCwd);
			await prompt(withBuild, () => {});
			const build = await repeat(runs, async (run) => {
				const timing = await prompt(withBuild, () => writeFileSync(path.join(bigCwd, "src", "mod0", `file${run}.ts`), `changed ${run}\n`));
				return timing.before;
			});
			const touched = [path.join(bigCwd, "build"), path.join(bigCwd, "build", "object-0.o")].some((file) => statSync(file).atimeMs !== older.getTime());
			const gb = ((buildFiles * 1024 * 1024) / 2 ** 30).toFixed(buildFiles >= 1024 ? 0 : 2);
			return [
				{ metric: "first checkpoint", workload: `${files.toLocaleString("en-US")} files, nothing recorded yet (once per project)`, value: first.before, format: ms, target: "(reported)" },
				{ metric: "per prompt, before", workload: `${files.toLocaleString("en-US")} files, 3 changed since the last prompt; a tool call waits for this`, ...steady, format: ms, target: "< 150 ms", pass: steady.median < 150 },
				{ metric: "per prompt, after", workload: "same; recorded in the background when the run ends", value: after, format: ms, target: "(reported)" },
				{ metric: "per prompt, read-only", workload: "a prompt whose tools only read (no git process: no snapshot is taken)", ...reading, format: ms, target: "< 1 ms", pass: reading.median < 1 },
				{ metric: "per prompt, no change", workload: "a call that may change files ran and changed nothing: before + after", ...unchanged, format: ms, target: "(reported)" },
				{ metric: "ignored build folder", workload: `${smoke ? 200 : 1000} files beside a ${gb} GB ignored build/ (${buildFiles} sparse files), 1 changed`, ...build, format: ms, target: "< 150 ms, build/ not read", pass: build.median < 150 && !touched, note: touched ? "build/ was listed or read (its access time changed)" : "build/ neither listed nor read (access times unchanged)" },
			];
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	},
};
