// Runs the `loom` command inside the test's process, through the CLI's I/O seam (run with an injected stdin,
// stdout, stderr, environment and working directory): for cases about arguments, configuration and sessions
// that need no real process. Exit codes on signals, pipes, terminals and the bundle stay with loom-process.ts.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { stderrLine } from "../../src/core/index.js";
import { parseArgs } from "../../src/cli/args.js";
import { run } from "../../src/cli/run.js";
import { UsageError } from "../../src/cli/run-io.js";
import { cleanEnv, type LoomOptions, type LoomResult } from "./loom-process.js";

/** A stream that keeps what is written to it; not a terminal. */
function capture(): { stream: NodeJS.WriteStream; text: () => string } {
	const stream = new PassThrough();
	let text = "";
	stream.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
	return { stream: stream as unknown as NodeJS.WriteStream, text: () => text };
}

interface Streams {
	stdin: PassThrough;
	stdout: ReturnType<typeof capture>;
	stderr: ReturnType<typeof capture>;
}

/** Runs the command on the given streams; the exit code, a usage error reported as the command's entry reports it. */
async function runOn(args: string[], options: Pick<LoomOptions, "cwd" | "home" | "env">, streams: Streams): Promise<number> {
	mkdirSync(join(options.home, "user-home"), { recursive: true });
	const io = { stdin: streams.stdin as unknown as NodeJS.ReadStream, stdout: streams.stdout.stream, stderr: streams.stderr.stream, env: cleanEnv(options.home, options.env), cwd: options.cwd };
	// The user's home (~/.claude's skills and hooks) is the process's, as os.homedir() reads it: the workspace's
	// for the run, as loom-process.ts gives a loom process, never the machine's.
	const userHome = process.env.HOME;
	process.env.HOME = io.env.HOME;
	try {
		const parsed = parseArgs(args, "0.0.0-test", { out: (text) => io.stdout.write(text), err: (text) => io.stderr.write(text) });
		return parsed.kind === "exit" ? parsed.code : await run(parsed.options, io, "0.0.0-test");
	} catch (error) {
		if (!(error instanceof UsageError)) throw error;
		io.stderr.write(`${stderrLine(error.message)}(run loom --help for usage)\n`);
		return 2;
	} finally {
		if (userHome === undefined) delete process.env.HOME;
		else process.env.HOME = userHome;
	}
}

/** The run's result once what it wrote has reached the captures (on the next turns of the event loop). */
async function result(code: number, streams: Streams): Promise<LoomResult> {
	await new Promise((resolve) => setImmediate(resolve));
	return { code, signal: null, stdout: streams.stdout.text(), stderr: streams.stderr.text() };
}

/**
 * What `runLoom` returns for the same arguments, reported the way the command's entry reports (a usage error:
 * its message and exit 2). `input` is stdin's whole content; without it stdin is empty.
 */
export async function runLoomInProcess(args: string[], options: Pick<LoomOptions, "cwd" | "home" | "env" | "input">): Promise<LoomResult> {
	const streams = { stdin: new PassThrough(), stdout: capture(), stderr: capture() };
	streams.stdin.end(options.input ?? "");
	return result(await runOn(args, options, streams), streams);
}

/** A run in this process whose stdin stays open for the test to write to, as startLoom's `openStdin`. */
export interface InProcessRun {
	stdin: NodeJS.WritableStream;
	/** What the run writes on stdout, to read as it comes (it is also kept for `done`). */
	stdout: NodeJS.ReadableStream;
	/** Output so far (live). */
	stdoutText(): string;
	stderr(): string;
	done: Promise<LoomResult>;
}

/** Starts the command in this process with stdin left open (a protocol mode: RPC, ACP); `done` once it returns. */
export function startLoomInProcess(args: string[], options: Pick<LoomOptions, "cwd" | "home" | "env">): InProcessRun {
	const streams = { stdin: new PassThrough(), stdout: capture(), stderr: capture() };
	const done = runOn(args, options, streams).then((code) => result(code, streams));
	return { stdin: streams.stdin, stdout: streams.stdout.stream as unknown as NodeJS.ReadableStream, stdoutText: streams.stdout.text, stderr: streams.stderr.text, done };
}
