// The grep tool over a large tree (50,000 source-like files) against `grep -r` on the same tree.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ms, repeat, runProcess } from "../lib.mjs";
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
			const loom = (pattern) =>
				repeat(runs, async () => {
					const result = await runProbe("grep-tree", { dir, pattern, limit: 10 * expected });
					if (result.matches !== expected || result.searched !== files) throw new Error(`grep found ${result.matches} in ${result.searched} files, expected ${expected} in ${files}`);
					return result.ms;
				});
			const grepR = (args) =>
				repeat(runs, async () => {
					const result = await runProcess("grep", ["-r", ...args, dir]);
					if (result.code !== 0) throw new Error(`grep -r exited ${result.code}`);
					return result.ms;
				});
			const literal = await loom("needle_");
			const literalGrep = await grepR(["needle_"]);
			const regex = await loom("needle_\\d+ =");
			const regexGrep = await grepR(["-E", "needle_[0-9]+ ="]);
			const workload = `${files.toLocaleString("en")} files of ${LINES_PER_FILE} lines, ${expected} matches`;
			return [
				{ metric: "grep, literal", workload: `${workload}; grep -r: ${ms(literalGrep.median)}`, ...literal, format: ms, target: "within 3× of grep -r", pass: literal.median <= 3 * literalGrep.median },
				{ metric: "grep, regex", workload: `same, a regex tested line by line; grep -rE: ${ms(regexGrep.median)}`, ...regex, format: ms, target: "within 5× of grep -rE", pass: regex.median <= 5 * regexGrep.median },
			];
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	},
};
