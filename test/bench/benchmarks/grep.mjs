// The grep and find tools over a large tree (50,000 source-like files) against `grep -r`, `rg` (what Pi's grep
// runs) and `find` on the same tree. Each tool call is timed inside its process; the commands as whole processes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { findOnPath } from "../../../dist/core/index.js";
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
			const rg = findOnPath("rg", process.env.PATH ?? "");
			const loom = (pattern, ripgrep) =>
				repeat(runs, async () => {
					const result = await runProbe("grep-tree", { dir, pattern, limit: 10 * expected, ripgrep });
					if (result.matches !== expected || result.searched !== files) throw new Error(`grep found ${result.matches} in ${result.searched} files, expected ${expected} in ${files}`);
					return result.ms;
				});
			const command = (name, args) =>
				repeat(runs, async () => {
					const result = await runProcess(name, [...args, dir]);
					if (result.code !== 0) throw new Error(`${name} exited ${result.code}`);
					return result.ms;
				});
			const literal = await loom("needle_", false);
			const literalGrep = await command("grep", ["-r", "needle_"]);
			const regex = await loom("needle_\\d+ =", false);
			const regexGrep = await command("grep", ["-r", "-E", "needle_[0-9]+ ="]);
			const found = await repeat(runs, async () => {
				const result = await runProbe("grep-tree", { dir, pattern: "*.ts", limit: 10 * files, tool: "find" });
				if (result.matches !== files) throw new Error(`find found ${result.matches} of ${files}`);
				return result.ms;
			});
			const findCommand = await repeat(runs, async () => (await runProcess("find", [dir, "-name", "*.ts"])).ms);
			const workload = `${files.toLocaleString("en")} files of ${LINES_PER_FILE} lines, ${expected} matches`;
			const ratio = (a, b) => a.median / b.median;
			const rows = [
				{ metric: "grep, literal", workload: `${workload}, Node walk; grep -r: ${ms(literalGrep.median)} (${ratio(literal, literalGrep).toFixed(2)}×)`, ...literal, format: ms, target: "≤ 1.5× grep -r", pass: ratio(literal, literalGrep) <= 1.5 },
				{ metric: "grep, regex", workload: `same, a regex tested line by line; grep -rE: ${ms(regexGrep.median)} (${ratio(regex, regexGrep).toFixed(2)}×)`, ...regex, format: ms, target: "≤ 1.5× grep -rE", pass: ratio(regex, regexGrep) <= 1.5 },
				{ metric: "find", workload: `*.ts over the same tree; find -name: ${ms(findCommand.median)} (${ratio(found, findCommand).toFixed(2)}×)`, ...found, format: ms, target: "≤ 3× find", pass: ratio(found, findCommand) <= 3 },
			];
			if (rg) {
				const withRg = await loom("needle_", true);
				const rgAlone = await command("rg", ["needle_"]);
				const regexRg = await loom("needle_\\d+ =", true);
				const regexRgAlone = await command("rg", ["needle_[0-9]+ ="]);
				rows.push(
					{ metric: "grep via rg, literal", workload: `same, rg on the PATH; rg alone (as Pi's grep runs it): ${ms(rgAlone.median)} (${ratio(withRg, rgAlone).toFixed(2)}×)`, ...withRg, format: ms, target: "≤ 1.2× rg", pass: ratio(withRg, rgAlone) <= 1.2 },
					{ metric: "grep via rg, regex", workload: `same with the regex; rg alone: ${ms(regexRgAlone.median)} (${ratio(regexRg, regexRgAlone).toFixed(2)}×)`, ...regexRg, format: ms, target: "≤ 1.2× rg", pass: ratio(regexRg, regexRgAlone) <= 1.2 },
				);
			}
			return rows;
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	},
};
