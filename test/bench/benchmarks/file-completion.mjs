// `@` file completion in a big project: indexing the tree (gitignore applied) and matching a query against it,
// with the longest time a keystroke could wait behind either (the longest turn of the event loop meanwhile).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { FileIndex } from "../../../dist/tui/completion/file-index.js";
import { FileMatcher } from "../../../dist/tui/completion/file-matcher.js";
import { ms, repeat } from "../lib.mjs";

async function makeTree(root, dirs, filesPerDir) {
	writeFileSync(path.join(root, ".gitignore"), "node_modules/\n*.log\n");
	for (let d = 0; d < dirs; d++) {
		const dir = path.join(root, `pkg${d}`, "src");
		mkdirSync(dir, { recursive: true });
		await Promise.all(Array.from({ length: filesPerDir }, (_, f) => writeFile(path.join(dir, `module${f}.ts`), "")));
	}
	mkdirSync(path.join(root, "node_modules", "big"), { recursive: true });
	writeFileSync(path.join(root, "pkg3", "src", "needle-parser.ts"), "");
}

/** Runs `work` while sampling the event loop; resolves with its time and the longest stall meanwhile. */
async function measured(work) {
	const delay = monitorEventLoopDelay({ resolution: 1 });
	delay.enable();
	const started = process.hrtime.bigint();
	await work();
	const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
	delay.disable();
	return { elapsed, stall: delay.max / 1e6 };
}

export default {
	name: "file completion",
	async run({ smoke }) {
		const runs = smoke ? 1 : 5;
		const dirs = smoke ? 10 : 250;
		const perDir = smoke ? 50 : 200;
		const files = dirs * perDir;
		const root = mkdtempSync(path.join(os.tmpdir(), "loom-bench-files-"));
		try {
			await makeTree(root, dirs, perDir);
			const stalls = [];
			const index = await repeat(runs, async () => {
				const fresh = new FileIndex(root);
				const { elapsed, stall } = await measured(async () => {
					fresh.snapshot();
					await fresh.ready();
				});
				stalls.push(stall);
				return elapsed;
			});
			const built = new FileIndex(root);
			await built.ready();
			const matchStalls = [];
			const match = await repeat(runs, async () => {
				const matcher = new FileMatcher(built);
				const { elapsed, stall } = await measured(
					() =>
						new Promise((resolve) => {
							const stop = matcher.subscribe(() => {
								if (matcher.matches("parser").pending) return;
								stop();
								resolve();
							});
							matcher.matches("parser");
						}),
				);
				matchStalls.push(stall);
				return elapsed;
			});
			const worstStall = Math.max(...stalls, ...matchStalls);
			return [
				{ metric: "index the project", workload: `${files.toLocaleString("en")} files in ${dirs} directories, .gitignore applied`, ...index, format: ms, target: "< 1 s", pass: index.median < 1000 },
				{ metric: "match a query", workload: `"parser" against ${files.toLocaleString("en")} paths`, ...match, format: ms, target: "< 200 ms", pass: match.median < 200 },
				{ metric: "longest stall", workload: "longest event-loop turn while indexing or matching", value: worstStall, format: ms, target: "< 50 ms", pass: worstStall < 50 },
			];
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	},
};
