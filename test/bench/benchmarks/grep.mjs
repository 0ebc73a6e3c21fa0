// The grep and find tools over a large tree (50,000 source-like files) against `grep -r`, `rg` (what Pi's grep
// runs) and `find` on the same tree. Each tool call is timed inside its process; the commands as whole processes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { findOnPath } from "../../../dist/core/index.js";
import { ms, paired, runProcess } from "../lib.mjs";
import { runProbe } from "../probes/run-probe.mjs";

const LINES_PER_FILE = 40;
/** One file in this many holds a match: a search's usual answer is a few dozen lines among thousands of files. */
const MATCH_EVERY = 1000;

function source(index) {
	const lines = [];
	for (let line = 0; line < LINES_PER_FILE; line++) {
		lines.push(line === 7 && index % MATCH_EVERY === 0 ? `export const needle_${index} = ${index}; // the one to find` : `const value${line} = compute(${index}, ${line}); // ordinary code`);
	}
	return `${lines.join("\n")}\n`;
}

/** files = folders × subfolders × files each, like a monorepo's packages. */
function makeTree(root, files) {
	const perFolder = 100;
	const subfolders = 10;
	let index = 0;
	for (let a = 0; index < files; a++) {
		for (let b = 0; b < subfolders && index < files; b++) {
			const dir = path.join(root, `pkg${a}`, `mod${b}`);
			mkdirSync(dir, { recursive: true });
			for (let c = 0; c < perFolder && index < files; c++, index++) writeFileSync(path.join(dir, `file${c}.ts`), source(index));
		}
	}
}

export default {
	name: "grep",
	async run({ smoke }) {
		const runs = smoke ? 1 : 5;
		const files = smoke ? 500 : 50_000;
		const expected = Math.ceil(files / MATCH_EVERY);
		const dir = mkdtempSync(path.join(os.tmpdir(), "loom-bench-grep-"));
		try {
			makeTree(dir, files);
			const rg = findOnPath("rg", process.env.PATH ?? "");
			const loom = (pattern, ripgrep) => async () => {
				const result = await runProbe("grep-tree", { dir, pattern, limit: 10 * expected, ripgrep });
				if (result.matches !== expected || result.searched !== files) throw new Error(`grep found ${result.matches} in ${result.searched} files, expected ${expected} in ${files}`);
				return result.ms;
			};
			const command = (name, args) => async () => {
				const result = await runProcess(name, [...args, dir]);
				if (result.code !== 0) throw new Error(`${name} exited ${result.code}`);
				return result.ms;
			};
			const findTool = async () => {
				const result = await runProbe("grep-tree", { dir, pattern: "*.ts", limit: 10 * files, tool: "find" });
				if (result.matches !== files) throw new Error(`find found ${result.matches} of ${files}`);
				return result.ms;
			};
			// Each pair in turn (tool, command, tool, command …); the ratio is the median of the pairs' ratios.
			const literal = await paired(runs, loom("needle_", false), command("grep", ["-r", "needle_"]));
			const regex = await paired(runs, loom("needle_\\d+ =", false), command("grep", ["-r", "-E", "needle_[0-9]+ ="]));
			const found = await paired(runs, findTool, async () => (await runProcess("find", [dir, "-name", "*.ts"])).ms);
			const workload = `${files.toLocaleString("en")} files of ${LINES_PER_FILE} lines, ${expected} matches`;
			const row = (metric, text, pair, limit, against) => ({
				metric,
				workload: `${text}; ${against}: ${ms(pair.b.median)}, paired ratio ${pair.ratio.toFixed(2)}×`,
				...pair.a,
				format: ms,
				target: `≤ ${limit}× ${against}`,
				pass: pair.ratio <= limit,
			});
			const rows = [
				row("grep, literal", `${workload}, Node walk`, literal, 1.5, "grep -r"),
				row("grep, regex", "same, a regex tested line by line", regex, 1.5, "grep -rE"),
				row("find", "*.ts over the same tree", found, 3, "find -name"),
			];
			if (rg) {
				rows.push(
					row("grep via rg, literal", "same, rg on the PATH (as Pi's grep runs it)", await paired(runs, loom("needle_", true), command("rg", ["needle_"])), 1.2, "rg"),
					row("grep via rg, regex", "same with the regex", await paired(runs, loom("needle_\\d+ =", true), command("rg", ["needle_[0-9]+ ="])), 1.2, "rg"),
				);
			}
			return rows;
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	},
};
