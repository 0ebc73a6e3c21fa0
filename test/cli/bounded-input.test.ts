// End to end: every file loom reads on the user's behalf is checked for its kind and read with a limit, so a
// device, a FIFO or a huge sparse file ends at once with an error naming it, instead of hanging or eating memory.
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { serverFlags, sessionFiles, startLoom, useScriptedServer } from "../support/loom-process.js";
import { workspace } from "../support/temp-dir.js";

const server = useScriptedServer();

/** Each case must end well within this; the failures it guards against took seconds, gigabytes, or forever. */
const QUICK_MS = 5000;

/** Runs loom, killing it if it is still running after twice QUICK_MS (a regression must not eat the machine). */
async function timed(args: string[], ws: { cwd: string; home: string }) {
	const started = Date.now();
	const run = startLoom(args, ws);
	const killer = setTimeout(() => run.child.kill("SIGKILL"), 2 * QUICK_MS);
	const result = await run.done;
	clearTimeout(killer);
	return { ...result, ms: Date.now() - started };
}

function fifo(path: string): string {
	execFileSync("mkfifo", [path]);
	return path;
}

describe("files read on the user's behalf", () => {
	it("refuses @/dev/zero at once as not a regular file (exit 2)", async () => {
		const ws = workspace();
		const result = await timed(["-p", ...serverFlags(server.openaiBaseUrl), "@/dev/zero", "x"], ws);
		expect(result.ms).toBeLessThan(QUICK_MS);
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/@\/dev\/zero is not a regular file \(it is a character device\)/);
		expect(server.requests).toHaveLength(0);
	});

	it("refuses an @file that is a FIFO without waiting for a writer", async () => {
		const ws = workspace();
		fifo(join(ws.cwd, "pipe"));
		const result = await timed(["-p", ...serverFlags(server.openaiBaseUrl), "@pipe", "x"], ws);
		expect(result.ms).toBeLessThan(QUICK_MS);
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/@pipe is not a regular file \(it is a FIFO/);
	});

	it("refuses --session /dev/zero at once", async () => {
		const ws = workspace();
		const result = await timed(["-p", ...serverFlags(server.openaiBaseUrl), "--session", "/dev/zero", "x"], ws);
		expect(result.ms).toBeLessThan(QUICK_MS);
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/\/dev\/zero is not a regular file \(it is a character device\)/);
	});

	it("refuses a --session FIFO without waiting for a writer", async () => {
		const ws = workspace();
		const pipe = fifo(join(ws.cwd, "session.jsonl"));
		const result = await timed(["-p", ...serverFlags(server.openaiBaseUrl), "--session", pipe, "x"], ws);
		expect(result.ms).toBeLessThan(QUICK_MS);
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/session\.jsonl is not a regular file \(it is a FIFO/);
	});

	it("refuses a 2 GB sparse --session file after reading only its first bytes", async () => {
		const ws = workspace();
		const file = join(ws.cwd, "huge.jsonl");
		writeFileSync(file, "");
		truncateSync(file, 2 * 1024 ** 3);
		const result = await timed(["-p", ...serverFlags(server.openaiBaseUrl), "--session", file, "x"], ws);
		expect(result.ms).toBeLessThan(QUICK_MS);
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/huge\.jsonl is not a loom session file/);
	});

	it("refuses a session file with a valid header but more bytes than loom opens, by its size", async () => {
		const ws = workspace();
		const file = join(ws.cwd, "grown.jsonl");
		writeFileSync(file, `${JSON.stringify({ type: "session", version: 1, id: "big", created: new Date().toISOString(), cwd: ws.cwd })}\n`);
		truncateSync(file, 2 * 1024 ** 3);
		const result = await timed(["-p", ...serverFlags(server.openaiBaseUrl), "--session", file, "x"], ws);
		expect(result.ms).toBeLessThan(QUICK_MS);
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/grown\.jsonl is 2\.0 GB, over the .* loom opens/);
	});

	it("refuses a settings.json that is a device or a FIFO, naming it", async () => {
		const ws = workspace();
		symlinkSync("/dev/zero", join(ws.home, "settings.json"));
		const device = await timed(["-p", ...serverFlags(server.openaiBaseUrl), "x"], ws);
		expect(device.ms).toBeLessThan(QUICK_MS);
		expect(device.code).toBe(1);
		expect(device.stderr).toContain(`${join(ws.home, "settings.json")} is not a regular file (it is a character device)`);

		const other = workspace();
		fifo(join(other.home, "settings.json"));
		const pipe = await timed(["-p", ...serverFlags(server.openaiBaseUrl), "x"], other);
		expect(pipe.ms).toBeLessThan(QUICK_MS);
		expect(pipe.code).toBe(1);
		expect(pipe.stderr).toMatch(/settings\.json is not a regular file \(it is a FIFO/);
	});

	it("refuses a models.json that is a FIFO or too large, naming it", async () => {
		const ws = workspace();
		fifo(join(ws.home, "models.json"));
		const pipe = await timed(["-p", ...serverFlags(server.openaiBaseUrl), "x"], ws);
		expect(pipe.ms).toBeLessThan(QUICK_MS);
		expect(pipe.code).toBe(1);
		expect(pipe.stderr).toMatch(/models\.json is not a regular file \(it is a FIFO/);

		const other = workspace();
		const file = join(other.home, "models.json");
		writeFileSync(file, "");
		truncateSync(file, 2 * 1024 ** 3);
		const big = await timed(["-p", ...serverFlags(server.openaiBaseUrl), "x"], other);
		expect(big.ms).toBeLessThan(QUICK_MS);
		expect(big.code).toBe(1);
		expect(big.stderr).toMatch(/models\.json is 2\.0 GB, over the/);
	});

	it("caps each context file at 64 KB with a warning naming the file", async () => {
		const ws = workspace();
		const agents = join(ws.cwd, "AGENTS.md");
		writeFileSync(agents, `# Rules\n${"Keep every line short and clear.\n".repeat(10_000)}THE LAST RULE\n`);
		server.enqueue({ text: "ok" });
		const result = await timed(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(result.code).toBe(0);
		expect(result.stderr).toContain(`loom: warning: ${agents} is 322.3 KB; only its first 64 KB are given to the model.`);
		const system = server.requests[0]!.body.messages[0].content as string;
		expect(system).toContain("# Rules\nKeep every line short");
		expect(system).not.toContain("THE LAST RULE");
		expect(system.length).toBeLessThan(64 * 1024 + 8 * 1024);
	});

	it("takes a trust.json that is a FIFO for no decisions instead of blocking on it", async () => {
		const ws = workspace();
		fifo(join(ws.home, "trust.json"));
		server.enqueue({ text: "ok" });
		const result = await timed(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(result.ms).toBeLessThan(QUICK_MS);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("ok\n");
	});

	it("refuses a session whose lock file is a FIFO, naming it, instead of blocking on it", async () => {
		const ws = workspace();
		server.enqueue({ text: "first" });
		expect((await timed(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws)).code).toBe(0);
		const [file] = sessionFiles(ws.home);
		fifo(`${file}.lock`);
		const result = await timed(["-p", ...serverFlags(server.openaiBaseUrl), "--session", file!, "again"], ws);
		expect(result.ms).toBeLessThan(QUICK_MS);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(`${file}.lock is not a regular file (it is a FIFO`);
		expect(server.requests).toHaveLength(1);
	});

	it("skips a context file that is a FIFO instead of blocking on it", async () => {
		const ws = workspace();
		mkdirSync(join(ws.cwd, "sub"));
		fifo(join(ws.cwd, "AGENTS.md"));
		server.enqueue({ text: "ok" });
		const result = await timed(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], { ...ws, cwd: join(ws.cwd, "sub") });
		expect(result.ms).toBeLessThan(QUICK_MS);
		expect(result.code).toBe(0);
		expect(sessionFiles(ws.home)).toHaveLength(1);
	});
});
