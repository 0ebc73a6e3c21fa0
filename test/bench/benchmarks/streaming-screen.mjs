// The interactive screen under a long, fast answer, in a real pseudo-terminal (tmux): it must keep up with the
// stream, stay within one core, and never draw a frame taller than the terminal (Ink then clears the screen).
import { execFileSync, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loomBin, ms, paired } from "../lib.mjs";

const ROWS = 40;
const COLS = 120;
const SENTINEL = "ZEBRAFINISH";
const CLOCK_TICKS = 100; // USER_HZ on Linux
/** The screen's CPU over a fast answer may be at most this many times what parsing that answer costs loom. */
const CPU_RATIO_TARGET = 3;

/** About `tokens` tokens (4 characters each) of markdown: paragraphs, lists and code fences. */
function answerText(tokens) {
	const blocks = [];
	let chars = 0;
	for (let i = 0; chars < tokens * 4; i++) {
		const block =
			i % 5 === 4
				? "```ts\nconst value = compute(" + i + ");\nconsole.log(value);\n```"
				: i % 5 === 3
					? `- item ${i} with **bold** text\n- another item with \`code\``
					: `Paragraph ${i}: the quick brown fox jumps over the lazy dog, and then explains why in some detail.`;
		blocks.push(block);
		chars += block.length + 2;
	}
	return `${blocks.join("\n\n")}\n\n${SENTINEL}`;
}

/**
 * The model server runs in its own process: this one polls tmux synchronously, which would delay the
 * server's paced writes and make the stream look slower than it is.
 */
async function startServerProcess() {
	const script = fileURLToPath(new URL("../../support/scripted-model-server.mjs", import.meta.url));
	const child = spawn(process.execPath, [script, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
	const url = await new Promise((resolve, reject) => {
		let seen = "";
		child.stdout.on("data", (chunk) => {
			seen += chunk;
			const match = /listening on (\S+)/.exec(seen);
			if (match) resolve(match[1]);
		});
		child.once("exit", () => reject(new Error(`model server exited: ${seen}`)));
	});
	return {
		openaiBaseUrl: `${url}/v1`,
		enqueue: async (turn) => {
			const response = await fetch(`${url}/__script`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify([turn]) });
			if (!response.ok) throw new Error(`could not script the server: ${await response.text()}`);
		},
		close: () => child.kill(),
	};
}

function cpuSeconds(pid) {
	const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
	return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime, stime
}

async function streamDuration(server, turn) {
	await server.enqueue(turn);
	const started = performance.now();
	const response = await fetch(`${server.openaiBaseUrl}/chat/completions`, {
		method: "POST",
		headers: { "content-type": "application/json" },
		body: JSON.stringify({ model: "bench", stream: true, messages: [{ role: "user", content: "x" }] }),
	});
	for await (const _chunk of response.body) {
		// drain
	}
	return performance.now() - started;
}

let runs = 0;

async function screenRun(turn, home, cwd, server) {
	// A socket of its own each run: a tmux server just killed may still hold a reused one, and a new session
	// started on it dies with it ("server exited unexpectedly").
	const socket = `loom-bench-${process.pid}-${runs++}`;
	const tmux = (...args) => execFileSync("tmux", ["-u", "-L", socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
	const raw = path.join(home, `pane-${Date.now()}.raw`); // one file a run: pipe-pane appends
	// No CI variable: Ink draws nothing live when it is set.
	const env = [`PATH=${process.env.PATH}`, `HOME=${home}`, `LOOM_HOME=${home}`, "TERM=xterm-256color", "LANG=C.UTF-8"];
	const command = ["env", "-i", ...env, process.execPath, loomBin, "--no-session", "--provider", "openai", "--base-url", server.openaiBaseUrl, "--api-key", "bench"];
	try {
		tmux("new-session", "-d", "-s", "bench", "-x", String(COLS), "-y", String(ROWS), "-c", cwd, command.map((a) => `'${a}'`).join(" "));
		tmux("pipe-pane", "-o", "-t", "bench", `cat >> '${raw}'`);
		const pid = Number(tmux("display", "-p", "-t", "bench", "#{pane_pid}").trim());
		await waitFor(() => tmux("capture-pane", "-p", "-t", "bench").includes("›"), 10_000);
		await server.enqueue(turn);
		// The prompt drawn back means the screen runs (the first frame, drawn before it loads, takes no keys): its
		// load is not counted as the answer's CPU. Typed apart from Enter, which would read as a paste.
		tmux("send-keys", "-t", "bench", "-l", "write it");
		await waitFor(() => tmux("capture-pane", "-p", "-t", "bench").includes("› write it"), 20_000);
		const cpuBefore = cpuSeconds(pid);
		const started = performance.now();
		tmux("send-keys", "-t", "bench", "Enter");
		await waitFor(() => tmux("capture-pane", "-p", "-t", "bench").includes(SENTINEL), 120_000);
		const wall = performance.now() - started;
		const cpu = cpuSeconds(pid) - cpuBefore;
		const output = readFileSync(raw, "latin1");
		const frames = output.split("\u001b[2K\u001b[G").length - 1;
		const fullClears = output.split("\u001b[2J").length - 1;
		return { wall, cpu, frames, fullClears };
	} finally {
		try {
			tmux("kill-server");
		} catch {}
	}
}

/** CPU seconds (user + system) of one `loom -p` run, as bash's `times` reports its finished children. */
function printModeCpu(home, cwd, server) {
	const env = [`PATH=${process.env.PATH}`, `HOME=${home}`, `LOOM_HOME=${home}`, "LANG=C.UTF-8"];
	const loom = [process.execPath, loomBin, "-p", "--no-session", "--provider", "openai", "--base-url", server.openaiBaseUrl, "--api-key", "bench", "write it"];
	const out = execFileSync("env", ["-i", ...env, "bash", "-c", '"$@" >/dev/null; times', "_", ...loom], { cwd, encoding: "utf8" });
	const children = out.trim().split("\n").at(-1) ?? "";
	const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
	if (seconds.length !== 2) throw new Error(`unexpected \`times\` output: ${out}`);
	return seconds[0] + seconds[1];
}

/**
 * What parsing the answer's stream costs loom, in CPU seconds: `loom -p` on the answer less `loom -p` on a
 * one-word answer (the start and the request, which the screen's figure does not include either).
 */
async function parseCpu(turn, home, cwd, server) {
	await server.enqueue(turn);
	const whole = printModeCpu(home, cwd, server);
	await server.enqueue({ text: "hi" });
	const base = printModeCpu(home, cwd, server);
	return Math.max(0.01, whole - base);
}

async function waitFor(check, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	while (!check()) {
		if (Date.now() > deadline) throw new Error("timed out waiting for the screen");
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

export default {
	name: "streaming screen",
	async run({ smoke }) {
		try {
			execFileSync("tmux", ["-V"], { stdio: "ignore" });
		} catch {
			throw new Error("tmux is not installed (apt-get install tmux)");
		}
		const tokens = smoke ? 500 : 20_000;
		const text = answerText(tokens);
		const root = mkdtempSync(path.join(os.tmpdir(), "loom-bench-screen-"));
		const server = await startServerProcess();
		try {
			const cwd = path.join(root, "project");
			mkdirSync(cwd);
			const rows = [];
			for (const [label, pace] of [["2,000 tokens/s", { tokensPerSecond: 2000 }], ["maximum speed", {}]]) {
				const turn = { text, chunkSize: 4, usage: { input: 10, output: tokens }, ...pace };
				const own = await streamDuration(server, turn);
				const run = await screenRun(turn, root, cwd, server);
				const workload = `${tokens.toLocaleString("en")}-token markdown answer at ${label}, ${COLS}×${ROWS} tmux pane; the stream alone takes ${ms(own)}`;
				rows.push(
					{ metric: `screen, ${label}`, workload, value: run.wall, format: ms, target: "within 10% of the stream", pass: run.wall <= own * 1.1, note: `CPU ${run.cpu.toFixed(2)} s (${((run.cpu * 1000) / run.wall * 100).toFixed(0)}% of one core), ${run.frames} frames, ${run.fullClears} full-screen clears` },
					{ metric: `  frames over height`, workload: "full-screen clears seen in the raw output (Ink clears when a frame is taller than the terminal)", value: run.fullClears, format: String, target: "0", pass: run.fullClears === 0 },
				);
			}
			// CPU against the parse floor, paired (screen run, parse run) because the machine's speed drifts.
			const fast = { text, chunkSize: 4, usage: { input: 10, output: tokens } };
			const cpu = await paired(
				smoke ? 1 : 3,
				async () => (await screenRun(fast, root, cwd, server)).cpu,
				() => parseCpu(fast, root, cwd, server),
			);
			rows.push({
				metric: "  CPU vs parse",
				workload: `${tokens.toLocaleString("en")}-token answer at maximum speed: the screen's CPU from Enter to the last line over \`loom -p\`'s CPU for the same answer less its CPU for a one-word one`,
				value: cpu.ratio,
				format: (ratio) => `${ratio.toFixed(2)}×`,
				target: `≤ ${CPU_RATIO_TARGET}×`,
				pass: cpu.ratio <= CPU_RATIO_TARGET,
				note: `screen CPU median ${cpu.a.median.toFixed(2)} s, parse CPU median ${cpu.b.median.toFixed(2)} s (${cpu.a.runs} pairs)`,
			});
			return rows;
		} finally {
			server.close();
			rmSync(root, { recursive: true, force: true });
		}
	},
};
