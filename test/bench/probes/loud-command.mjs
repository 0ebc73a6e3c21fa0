// Probe: the bash tool running a command that prints `bytes` bytes. Prints wall time and peak RSS.
import { rmSync } from "node:fs";
import os from "node:os";
import { createBashTool } from "../../../dist/tools/index.js";
import { peakRss } from "./run-probe.mjs";

const { bytes } = JSON.parse(process.argv[2]);
const tool = createBashTool(os.tmpdir());
const baseline = peakRss();
const started = process.hrtime.bigint();
let updates = 0;
const result = await tool.execute("loud", { command: `yes 'the quick brown fox jumps over the lazy dog 0123456789' | head -c ${bytes}` }, undefined, () => updates++);
const ms = Number(process.hrtime.bigint() - started) / 1e6;
if (result.details?.fullOutputPath) rmSync(result.details.fullOutputPath, { force: true });
console.log(JSON.stringify({ ms, peakRss: peakRss(), baselineRss: baseline, updates }));
