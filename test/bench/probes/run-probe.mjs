// Runs one probe in a fresh Node process and returns what it printed (JSON), so memory figures are its own.
import { fileURLToPath } from "node:url";
import { runProcess } from "../lib.mjs";

export async function runProbe(name, input) {
	const script = fileURLToPath(new URL(`./${name}.mjs`, import.meta.url));
	const { code, stdout, stderr } = await runProcess(process.execPath, [script, JSON.stringify(input)]);
	if (code !== 0) throw new Error(`probe ${name} failed (exit ${code}): ${stderr.slice(-2000)}`);
	return JSON.parse(stdout.trim().split("\n").at(-1));
}

/** Peak resident memory of this process in bytes. */
export function peakRss() {
	return process.resourceUsage().maxRSS * 1024;
}
