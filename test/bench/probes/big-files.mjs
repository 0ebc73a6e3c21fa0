// Probe: edit one line in the middle of a file, or read 40 lines near the end. Prints time and peak RSS.
import path from "node:path";
import { createEditTool, createReadTool } from "../../../dist/tools/index.js";
import { peakRss } from "./run-probe.mjs";

const { op, file, lines, run = 0 } = JSON.parse(process.argv[2]);
const lineText = (i) => `line ${String(i).padStart(9, "0")}: some ordinary source text that goes on for a while;\n`;
const dir = path.dirname(file);
const name = path.basename(file);
const baseline = peakRss();
const started = process.hrtime.bigint();
if (op === "edit") {
	const target = Math.floor(lines / 2) + run; // a fresh line each run: the previous one is already edited
	await createEditTool(dir).execute("e", { path: name, edits: [{ oldText: lineText(target), newText: `line ${target}: edited\n` }] });
} else {
	const result = await createReadTool(dir).execute("r", { path: name, offset: lines - 50, limit: 40 });
	if (!result.content[0].text.includes(`line ${String(lines - 50).padStart(9, "0")}`)) throw new Error("read returned the wrong lines");
}
const ms = Number(process.hrtime.bigint() - started) / 1e6;
console.log(JSON.stringify({ ms, peakRss: peakRss(), baselineRss: baseline }));
