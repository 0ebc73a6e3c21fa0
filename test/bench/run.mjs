#!/usr/bin/env node
// `npm run bench`: runs every benchmark, prints a table (median, min, max of several runs), optionally writes JSON.
//   node test/bench/run.mjs [--json file] [--smoke] [--only name]
import { writeFileSync } from "node:fs";
import os from "node:os";
import { benchmarks } from "./benchmarks/index.mjs";

const args = process.argv.slice(2);
const option = (name) => {
	const index = args.indexOf(name);
	return index >= 0 ? args[index + 1] : undefined;
};
const smoke = args.includes("--smoke");
const only = option("--only");
const jsonFile = option("--json");

const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()}`;
console.log(`loom benchmarks${smoke ? " (smoke sizes)" : ""} — ${machine}\n`);

const results = [];
let failed = false;
for (const benchmark of benchmarks) {
	if (only && !benchmark.name.includes(only)) continue;
	let rows;
	try {
		rows = await benchmark.run({ smoke });
	} catch (error) {
		failed = true;
		console.log(`${benchmark.name}: FAILED TO RUN — ${error?.stack ?? error}\n`);
		continue;
	}
	console.log(`${benchmark.name}`);
	for (const row of rows) {
		const fmt = row.format ?? String;
		const figure = row.median !== undefined ? `${fmt(row.median)}  (min ${fmt(row.min)}, max ${fmt(row.max)}, ${row.runs} runs)` : fmt(row.value);
		// Smoke sizes only keep the code working; their figures are not judged.
		const verdict = smoke || row.pass === undefined ? "" : row.pass ? "ok" : "MISSED";
		console.log(`  ${row.metric.padEnd(22)} ${figure.padEnd(52)} target ${String(row.target).padEnd(24)} ${verdict}`);
		console.log(`  ${"".padEnd(22)} workload: ${row.workload}`);
		if (row.note) console.log(`  ${"".padEnd(22)} ${row.note}`);
		const { format, ...plain } = row;
		results.push({ benchmark: benchmark.name, ...plain });
	}
	console.log("");
}

if (jsonFile) writeFileSync(jsonFile, `${JSON.stringify({ machine, smoke, date: new Date().toISOString(), results }, null, 2)}\n`);
if (failed) process.exitCode = 1;
