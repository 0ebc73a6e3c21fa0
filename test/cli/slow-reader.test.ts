// End to end: every line loom writes reaches the reader before loom exits, however slowly the reader reads.
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cleanEnv, LOOM_BIN, serverFlags, useScriptedServer } from "../support/loom-process.js";
import { workspace } from "../support/temp-dir.js";
import { jsonLines } from "../support/loom-process.js";
import { waitFor } from "../support/wait-for.js";

const server = useScriptedServer();

/** Runs `loom args | (sleep 2; cat > out)` in a shell: a reader that reads nothing for two seconds. */
function runIntoSlowReader(args: string[], ws: { cwd: string; home: string }): Promise<{ code: number; out: string; stderr: string }> {
	const quoted = [process.execPath, LOOM_BIN, ...args].map((arg) => `'${arg.replace(/'/g, "'\\''")}'`).join(" ");
	const script = `(${quoted} </dev/null 2>err.txt; echo $? > code.txt) | (sleep 2; cat > out.txt)`;
	return new Promise((resolve, reject) => {
		execFile("sh", ["-c", script], { cwd: ws.cwd, env: cleanEnv(ws.home) }, (error) => {
			if (error) return reject(error);
			const read = (name: string) => readFileSync(join(ws.cwd, name), "utf8");
			resolve({ code: Number(read("code.txt").trim()), out: read("out.txt"), stderr: read("err.txt") });
		});
	});
}

/** A process's resident memory in bytes (Linux). */
function residentBytes(pid: number): number {
	return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;
}

/** Resolves once a process's memory has stopped growing: less than 2 MB more over 1.5 s. Returns the highest seen. */
async function memoryPlateau(pid: number, timeoutMs: number): Promise<number> {
	const samples: number[] = [];
	await waitFor(
		async () => {
			await new Promise((resolve) => setTimeout(resolve, 250));
			samples.push(residentBytes(pid));
			return samples;
		},
		(seen) => seen.length > 6 && seen.at(-1)! - seen.at(-7)! < 2 * 1024 * 1024,
		{ timeoutMs, intervalMs: 0, what: "loom's memory to stop growing" },
	);
	return Math.max(...samples);
}

describe("a slow reader of stdout", () => {
	it("json mode: gets every line of a large answer, ending with agent_end and run_end", async () => {
		const ws = workspace();
		const text = "a long answer streamed in many small deltas. ".repeat(8000);
		server.enqueue({ text, chunkSize: 40 });
		const result = await runIntoSlowReader(["--mode", "json", ...serverFlags(server.openaiBaseUrl), "talk at length"], ws);
		expect(result.stderr).toBe("");
		expect(result.code).toBe(0);
		expect(result.out.length).toBeGreaterThan(1_000_000);
		const events = jsonLines(result.out);
		expect(events.slice(-2).map((e) => e.type)).toEqual(["agent_end", "run_end"]);
		const deltas = events.filter((e) => e.type === "message_update" && e.assistantMessageEvent.type === "text_delta");
		expect(deltas.map((e) => e.assistantMessageEvent.delta).join("")).toBe(text);
		expect(events.filter((e) => e.type === "message_end").map((e) => e.message.role)).toEqual(["user", "assistant"]);
	});

	it("text mode: gets the whole answer", async () => {
		const ws = workspace();
		const text = `${"every word of this answer must arrive. ".repeat(60_000)}THE END`;
		server.enqueue({ text, chunkSize: 4096 });
		const result = await runIntoSlowReader(["-p", ...serverFlags(server.openaiBaseUrl), "talk at length"], ws);
		expect(result.stderr).toBe("");
		expect(result.code).toBe(0);
		expect(result.out).toBe(`${text}\n`);
	});

	it.skipIf(!existsSync("/proc/self/status"))(
		"rpc mode: a reader that stops reading holds the run back instead of loom's memory filling with lines, then gets every line in order",
		async () => {
			const ws = workspace();
			mkdirSync(join(ws.home, "user-home"), { recursive: true });
			// A hundred and fifty thousand small deltas: their lines are several times the answer's size.
			const text = "a long answer in many small deltas. ".repeat(100_000);
			server.enqueue({ text: "warmed up" }, { text, chunkSize: 24 });
			// A small young generation: its garbage, collected at leisure on a busy machine, does not pass for lines held.
			const child = spawn(process.execPath, ["--max-semi-space-size=1", LOOM_BIN, "--mode", "rpc", ...serverFlags(server.openaiBaseUrl)], {
				cwd: ws.cwd,
				env: cleanEnv(ws.home),
				stdio: ["pipe", "pipe", "pipe"],
			});
			let stderr = "";
			child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
			const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
			// The run ends are counted as the output comes, in each chunk (with the end of the one before, for a line
			// split between them): the output grows to tens of megabytes, and searching all of it at every poll would
			// take the CPU loom needs.
			const RUN_END = '{"type":"run_end","status":"done"}\n';
			let out = "";
			let ends = 0;
			let tail = "";
			child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
				out += chunk;
				const text = tail + chunk;
				for (let at = text.indexOf(RUN_END); at !== -1; at = text.indexOf(RUN_END, at + RUN_END.length)) ends += 1;
				tail = text.slice(-(RUN_END.length - 1));
			});
			const runEnds = () => ends;
			// A first prompt loads what any prompt needs, so the memory measured next is the answer's.
			child.stdin.write(`${JSON.stringify({ type: "prompt", message: "warm up" })}\n`);
			await waitFor(runEnds, (count) => count === 1, { what: "the first run's end", show: () => out });
			child.stdout.pause();
			const before = residentBytes(child.pid!);
			child.stdin.write(`${JSON.stringify({ type: "prompt", id: "p", message: "talk at length" })}\n`);
			// Nothing is read from stdout until loom's memory stops growing.
			const peak = await memoryPlateau(child.pid!, 120_000);
			child.stdout.resume();
			await waitFor(runEnds, (count) => count === 2, { timeoutMs: 240_000, what: "the second run's end", show: () => `${out.slice(-1500)}\nstderr: ${stderr}` });
			child.stdin.end();
			expect(await exited).toBe(0);
			expect(stderr).toBe("");
			const lines = jsonLines(out);
			const second = lines.slice(lines.findIndex((line) => line.type === "run_end") + 1);
			expect(second.findIndex((line) => line.type === "response" && line.id === "p")).toBeLessThan(second.findIndex((line) => line.type === "run_start"));
			expect(second.slice(-2).map((line) => line.type)).toEqual(["agent_end", "run_end"]);
			const deltas = second.filter((line) => line.type === "message_update" && line.assistantMessageEvent.type === "text_delta");
			expect(deltas.map((line) => line.assistantMessageEvent.delta).join("")).toBe(text);
			// Held in memory, the lines would cost more than their own size; waiting for the reader, the run's own working
			// memory (its answer, several megabytes, and garbage not yet collected) at most.
			expect(peak - before).toBeLessThan(out.length * 0.75);
		},
		// Streaming 33 MB of lines takes 5 s on an idle machine, over a minute at load 12.
		400_000,
	);
});
