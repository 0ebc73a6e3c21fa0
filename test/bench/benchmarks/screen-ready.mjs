// How soon the interactive screen can be used, in a real pseudo-terminal (tmux): from spawning `loom` to the
// editor drawn and taking keys (a key typed the moment the editor appears is drawn back), from Enter to the
// first request reaching the model server, and from spawning `loom` with a prompt typed at once (before anything
// is drawn) to its request reaching the server.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startScriptedModelServer } from "../../support/scripted-model-server.mjs";
import { loomBin, ms, summarize } from "../lib.mjs";

const PLACEHOLDER = "Ask loom";
/** In the screen's footer, not in the editor's first frame: the screen is up. */
const FOOTER = "openai/";
/** The typed key drawn back after the editor's prompt marker, whatever styles the row carries. */
const ECHO = /› (?:\u001b\[[0-9;]*m)*Q/;

const sleep = (delay) => new Promise((resolve) => setTimeout(resolve, delay));
const CLOCK_TICKS = 100; // USER_HZ on Linux

/** CPU time a process has used so far, in ms (user + system): the start's cost whatever else the machine runs. */
function cpuMs(pid) {
	const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
	return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS) * 1000;
}

/** Polls the raw pane output (a file tmux appends to) from byte `from` on, without blocking this process's server. */
async function waitForOutput(file, from, check, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const text = readFileSync(file).subarray(from).toString("utf8");
		if (check(text)) return;
		if (Date.now() > deadline) throw new Error(`timed out waiting for the screen; it wrote:\n${JSON.stringify(text.slice(-500))}`);
		await sleep(1);
	}
}

/**
 * A tmux pane ready to run `loom` against the server, its raw output appended to a file; `spawn()` starts loom
 * and returns the time it did. `close()` ends tmux.
 */
function benchPane(root, cwd, server, index) {
	const socket = `loom-bench-ready-${process.pid}-${index}`;
	const tmux = (...args) => execFileSync("tmux", ["-u", "-L", socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
	const raw = path.join(root, `pane-${index}.raw`);
	writeFileSync(raw, "");
	const env = [`PATH=${process.env.PATH}`, `HOME=${root}`, `LOOM_HOME=${root}`, "TERM=xterm-256color", "LANG=C.UTF-8"];
	const command = ["env", "-i", ...env, process.execPath, loomBin, "--no-session", "--provider", "openai", "--base-url", server.openaiBaseUrl, "--api-key", "bench"];
	// The pane first runs an idle command, so the pipe to the raw file is in place before loom writes anything.
	tmux("new-session", "-d", "-s", "bench", "-x", "120", "-y", "40", "-c", cwd, "sleep 600");
	tmux("set-option", "-s", "escape-time", "10");
	tmux("pipe-pane", "-t", "bench", `cat >> '${raw}'`);
	return {
		tmux,
		raw,
		spawn() {
			const spawned = performance.now();
			tmux("respawn-pane", "-k", "-t", "bench", command.map((arg) => `'${arg}'`).join(" "));
			return spawned;
		},
		close() {
			try {
				tmux("kill-server");
			} catch {}
		},
	};
}

/** Resolves once the server has more than `count` requests; rejects after a generous wait. */
async function nextRequest(server, count, what) {
	const deadline = Date.now() + 20_000;
	while (server.requests.length === count) {
		if (Date.now() > deadline) throw new Error(`no request reached the server ${what}`);
		await sleep(1);
	}
	return server.requests[count];
}

/** One start of the screen: the times from spawn to the editor drawn, to a key drawn back, and from Enter to the request. */
async function oneRun(root, cwd, server, index) {
	const { tmux, raw, spawn, close } = benchPane(root, cwd, server, index);
	try {
		const spawned = spawn();
		await waitForOutput(raw, 0, (text) => text.includes(PLACEHOLDER), 20_000);
		const drawn = performance.now() - spawned;
		const before = readFileSync(raw).length;
		tmux("send-keys", "-t", "bench", "-l", "Q");
		await waitForOutput(raw, before, (text) => ECHO.test(text), 20_000);
		const ready = performance.now() - spawned;
		const cpu = cpuMs(Number(tmux("display", "-p", "-t", "bench", "#{pane_pid}").trim()));
		// The key may be drawn by the editor's first frame, before the screen is up: Enter is timed in the screen,
		// once its footer (the model) shows.
		await waitForOutput(raw, 0, (text) => text.includes(FOOTER), 20_000);
		// Typed apart from Enter: one write with both would read as a paste.
		tmux("send-keys", "-t", "bench", "-l", "uick");
		await sleep(150);
		const requests = server.requests.length;
		const enter = Date.now();
		tmux("send-keys", "-t", "bench", "Enter");
		const firstRequest = (await nextRequest(server, requests, "after Enter")).receivedAt - enter;
		return { drawn, ready, cpu, firstRequest };
	} finally {
		close();
	}
}

/** One start with a prompt typed at once: from spawn, "hi" and Enter typed straight away, to its request at the server. */
async function oneTypedAhead(root, cwd, server, index) {
	const { tmux, spawn, close } = benchPane(root, cwd, server, `typed-${index}`);
	try {
		const requests = server.requests.length;
		const spawnedAt = Date.now();
		spawn();
		// Typed apart from Enter, as a person types, before loom has drawn (or even started) anything.
		tmux("send-keys", "-t", "bench", "-l", "hi");
		tmux("send-keys", "-t", "bench", "Enter");
		const request = await nextRequest(server, requests, 'for "hi" and Enter typed as loom started');
		// The user's message, in Chat Completions' messages or the Responses API's input.
		const prompt = (request.body?.messages ?? request.body?.input)?.findLast?.((message) => message.role === "user");
		if (!/"(?:content|text)":"hi"/.test(JSON.stringify(prompt ?? null))) throw new Error(`the request does not carry the prompt typed ("hi"): ${JSON.stringify(prompt)}`);
		return request.receivedAt - spawnedAt;
	} finally {
		close();
	}
}

export default {
	name: "screen ready",
	async run({ smoke }) {
		try {
			execFileSync("tmux", ["-V"], { stdio: "ignore" });
		} catch {
			throw new Error("tmux is not installed (apt-get install tmux)");
		}
		const runs = smoke ? 1 : 10;
		const root = mkdtempSync(path.join(os.tmpdir(), "loom-bench-ready-"));
		const server = await startScriptedModelServer({ defaultTurn: { text: "hello" } });
		try {
			const cwd = path.join(root, "project");
			mkdirSync(cwd);
			const samples = [];
			const typedAhead = [];
			for (let i = 0; i < runs; i++) {
				samples.push(await oneRun(root, cwd, server, i));
				typedAhead.push(await oneTypedAhead(root, cwd, server, i));
			}
			const started = summarize(typedAhead);
			const drawn = summarize(samples.map((s) => s.drawn));
			const ready = summarize(samples.map((s) => s.ready));
			const request = summarize(samples.map((s) => s.firstRequest));
			const cpu = summarize(samples.map((s) => s.cpu));
			const workload = "loom --no-session in a 120×40 tmux pane, a local model server";
			return [
				{ metric: "screen drawn", workload: `${workload}; spawn to the editor on screen`, ...drawn, format: ms, target: "< 300 ms", pass: drawn.median < 300 },
				{
					metric: "screen ready",
					workload: `${workload}; spawn to a key typed at once drawn back`,
					...ready,
					format: ms,
					target: "< 300 ms",
					pass: ready.median < 300,
					note: `CPU used by then ${ms(cpu.median)} (min ${ms(cpu.min)}, max ${ms(cpu.max)}, in 10 ms ticks)`,
				},
				{ metric: "Enter to request", workload: `${workload}; Enter to the first request at the server`, ...request, format: ms, target: "< 50 ms", pass: request.median < 50 },
				{
					metric: "start to request",
					workload: `${workload}; spawn, "hi" and Enter typed at once, to its request at the server`,
					...started,
					format: ms,
					target: "≤ 300 ms",
					pass: started.median <= 300,
				},
			];
		} finally {
			await server.close();
			rmSync(root, { recursive: true, force: true });
		}
	},
};
