// Shared measuring helpers for the benchmark suite.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
export const loomBin = fileURLToPath(new URL("../../bin/loom", import.meta.url));

/** Summary of repeated samples: the median is the figure, min and max show the spread. */
export function summarize(samples) {
	const sorted = [...samples].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
	return { median, min: sorted[0], max: sorted[sorted.length - 1], runs: sorted.length };
}

export async function repeat(runs, fn) {
	const samples = [];
	for (let i = 0; i < runs; i++) samples.push(await fn(i));
	return summarize(samples);
}

/**
 * Runs `a` and `b` in turn, `runs` times each (A B A B …), and takes the ratio a/b pair by pair: pairing keeps
 * the ratio meaningful on a machine whose speed drifts (other work on it). Returns both summaries and the
 * median ratio.
 */
export async function paired(runs, a, b) {
	const as = [];
	const bs = [];
	const ratios = [];
	for (let i = 0; i < runs; i++) {
		const x = await a(i);
		const y = await b(i);
		as.push(x);
		bs.push(y);
		ratios.push(x / y);
	}
	return { a: summarize(as), b: summarize(bs), ratio: summarize(ratios).median };
}

/** Runs a command to completion; resolves with wall time in ms, exit code and output. */
export function runProcess(command, args, options = {}) {
	return new Promise((resolve, reject) => {
		const started = process.hrtime.bigint();
		const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], ...options });
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (chunk) => (stdout += chunk));
		child.stderr.on("data", (chunk) => (stderr += chunk));
		child.on("error", reject);
		child.on("close", (code) => {
			const ms = Number(process.hrtime.bigint() - started) / 1e6;
			resolve({ ms, code, stdout, stderr });
		});
	});
}

export function ms(value) {
	return `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms`;
}

export function us(value) {
	return `${value.toFixed(2)} µs`;
}

export function mb(bytes) {
	return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}
