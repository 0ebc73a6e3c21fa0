// End to end: every line loom writes reaches the reader before loom exits, however slowly the reader reads.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cleanEnv, LOOM_BIN, serverFlags, useScriptedServer } from "./loom-process.js";
import { workspace } from "../support/temp-dir.js";
import { jsonLines } from "./loom-process.js";

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
	}, 60_000);

	it("text mode: gets the whole answer", async () => {
		const ws = workspace();
		const text = `${"every word of this answer must arrive. ".repeat(60_000)}THE END`;
		server.enqueue({ text, chunkSize: 4096 });
		const result = await runIntoSlowReader(["-p", ...serverFlags(server.openaiBaseUrl), "talk at length"], ws);
		expect(result.stderr).toBe("");
		expect(result.code).toBe(0);
		expect(result.out).toBe(`${text}\n`);
	}, 60_000);
});
