// Runs the real built `loom` binary as a child process, with a temporary LOOM_HOME and a clean environment.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { ScriptedModelServer } from "./scripted-model-server.mjs";
import { useScriptedServer as useServer } from "./use-scripted-server.js";
import { sleep, waitFor } from "./wait-for.js";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const LOOM_BIN = join(ROOT, "bin", "loom");
const MAIN_JS = join(ROOT, "dist", "bundle", "loom.js");

function newestMtime(dir: string): number {
	let newest = 0;
	for (const name of readdirSync(dir, { withFileTypes: true })) {
		const path = join(dir, name.name);
		newest = Math.max(newest, name.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
	}
	return newest;
}

function isStale(): boolean {
	try {
		return statSync(MAIN_JS).mtimeMs < newestMtime(join(ROOT, "src"));
	} catch {
		return true;
	}
}

/** Builds dist/ (tsc, then the bundle) when a source is newer than the bundle; one test file builds, the others wait. */
export async function ensureBuilt(): Promise<void> {
	const lock = join(tmpdir(), `loom-build-${ROOT.replace(/[^A-Za-z0-9]/g, "_")}.lock`);
	for (;;) {
		if (!isStale()) return;
		try {
			mkdirSync(lock);
		} catch {
			await sleep(100);
			continue;
		}
		try {
			// Type errors elsewhere must not stop the bundle; the binary's behaviour is what these tests judge.
			try {
				execFileSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], { cwd: ROOT, stdio: "ignore" });
			} catch {}
			execFileSync("npx", ["rolldown", "-c", "rolldown.config.mjs"], { cwd: ROOT, stdio: "ignore" });
		} finally {
			rmdirSync(lock);
		}
		return;
	}
}

export interface LoomResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

export interface LoomRun {
	child: ChildProcess;
	/** Output so far (live). */
	stdout(): string;
	stderr(): string;
	/** Resolves once stdout contains `text`. */
	waitForStdout(text: string | RegExp, timeoutMs?: number): Promise<void>;
	done: Promise<LoomResult>;
}

export interface LoomOptions {
	cwd: string;
	home: string;
	/** Piped to stdin, then closed. Without it stdin is /dev/null (not a terminal, empty). */
	input?: string;
	/** stdin is a pipe left open for the test to write to (`child.stdin`); overrides `input`. */
	openStdin?: boolean;
	env?: Record<string, string>;
	/** A file descriptor for stdout instead of a pipe (e.g. /dev/full); stdout() then stays empty. */
	stdoutFd?: number;
	/** Run as this user and group (needs root), e.g. to meet permissions that root would bypass. */
	uid?: number;
	gid?: number;
}

/** A minimal environment: no API keys or base URLs from the machine running the tests. */
export function cleanEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
	return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: join(home, "user-home"), LOOM_HOME: home, ...extra };
}

export function startLoom(args: string[], options: LoomOptions): LoomRun {
	mkdirSync(join(options.home, "user-home"), { recursive: true });
	const child = spawn(process.execPath, [LOOM_BIN, ...args], {
		cwd: options.cwd,
		env: cleanEnv(options.home, options.env),
		stdio: [options.input === undefined && !options.openStdin ? "ignore" : "pipe", options.stdoutFd ?? "pipe", "pipe"],
		...(options.uid !== undefined ? { uid: options.uid, gid: options.gid ?? options.uid } : {}),
	});
	let stdout = "";
	let stderr = "";
	child.stdout?.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
	child.stderr!.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
	if (options.input !== undefined && !options.openStdin) child.stdin!.end(options.input);
	const done = new Promise<LoomResult>((resolveDone) => {
		child.on("close", (code, signal) => resolveDone({ code, signal, stdout, stderr }));
	});
	return {
		child,
		stdout: () => stdout,
		stderr: () => stderr,
		async waitForStdout(text, timeoutMs = 60_000) {
			const found = (out: string) => (typeof text === "string" ? out.includes(text) : text.test(out));
			const output = () => {
				if (!found(stdout) && child.exitCode !== null) throw new Error(`loom exited (${child.exitCode}) before showing ${text}; stderr: ${stderr}`);
				return stdout;
			};
			await waitFor(output, found, { timeoutMs, intervalMs: 20, what: `stdout to show ${text}`, show: (out) => `stdout: ${out}\nstderr: ${stderr}` });
		},
		done,
	};
}

export function runLoom(args: string[], options: LoomOptions): Promise<LoomResult> {
	return startLoom(args, options).done;
}

/**
 * Flags pointing loom at the scripted server's OpenAI endpoint. No checkpoints unless asked (`checkpoints: true`):
 * each prompt that may change files otherwise waits for several git processes, and only the tests of /rewind and
 * the checkpoints themselves read them (the checkpoint tests run them with every kind of run).
 */
export function serverFlags(openaiBaseUrl: string, { checkpoints = false }: { checkpoints?: boolean } = {}): string[] {
	return ["--provider", "openai", "--model", "scripted", "--base-url", openaiBaseUrl, "--api-key", "test-key", ...(checkpoints ? [] : ["--no-checkpoints"])];
}

/** loom's JSON-mode output, one event a line. */
export function jsonLines(stdout: string): any[] {
	return stdout
		.trimEnd()
		.split("\n")
		.map((line) => JSON.parse(line));
}

/** A session file's lines, parsed: the header, then the entries. */
export function sessionLines(file: string): any[] {
	return jsonLines(readFileSync(file, "utf8"));
}

/** The messages a session file records, in file order. */
export function sessionMessages(file: string): any[] {
	return sessionLines(file)
		.filter((line) => line.type === "message")
		.map((line) => line.message);
}

/** Every session file under a LOOM_HOME (lock files left out). */
export function sessionFiles(home: string): string[] {
	const root = join(home, "sessions");
	try {
		return readdirSync(root).flatMap((dir) =>
			readdirSync(join(root, dir))
				.filter((name) => name.endsWith(".jsonl"))
				.map((name) => join(root, dir, name)),
		);
	} catch {
		return [];
	}
}

/** A loom that keeps the directory's newest session open for writing (`-c`, an endless answer) until it is killed. */
export async function holdSession(server: ScriptedModelServer, ws: { cwd: string; home: string }): Promise<LoomRun> {
	server.enqueue({ text: "word ", endless: true, chunkDelayMs: 10 });
	const holder = startLoom(["--mode", "json", "-c", ...serverFlags(server.openaiBaseUrl), "talk"], ws);
	await holder.waitForStdout('"text_delta"');
	return holder;
}

/** For a test file: builds loom once, then one scripted model server, reset before each test. */
export function useScriptedServer(): ScriptedModelServer {
	return useServer(ensureBuilt);
}
