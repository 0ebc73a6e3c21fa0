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

/**
 * What `runLoom` returns for the same arguments, reported the way the command's entry reports (a usage error:
 * its message and exit 2). `input` is stdin's whole content; without it stdin is empty.
 */
export async function runLoomInProcess(args: string[], options: Pick<LoomOptions, "cwd" | "home" | "env" | "input">): Promise<LoomResult> {
	mkdirSync(join(options.home, "user-home"), { recursive: true });
	const stdout = capture();
	const stderr = capture();
	const stdin = new PassThrough();
	stdin.end(options.input ?? "");
	const io = { stdin: stdin as unknown as NodeJS.ReadStream, stdout: stdout.stream, stderr: stderr.stream, env: cleanEnv(options.home, options.env), cwd: options.cwd };
	let code: number;
	// The user's home (~/.claude's skills and hooks) is the process's, as os.homedir() reads it: the workspace's
	// for the run, as loom-process.ts gives a loom process, never the machine's.
	const userHome = process.env.HOME;
	process.env.HOME = io.env.HOME;
	try {
		const parsed = parseArgs(args, "0.0.0-test", { out: (text) => io.stdout.write(text), err: (text) => io.stderr.write(text) });
		code = parsed.kind === "exit" ? parsed.code : await run(parsed.options, io, "0.0.0-test");
	} catch (error) {
		if (!(error instanceof UsageError)) throw error;
		io.stderr.write(`${stderrLine(error.message)}(run loom --help for usage)\n`);
		code = 2;
	} finally {
		if (userHome === undefined) delete process.env.HOME;
		else process.env.HOME = userHome;
	}
	// Written data reaches the capture on the next turns of the event loop.
	await new Promise((resolve) => setImmediate(resolve));
	return { code, signal: null, stdout: stdout.text(), stderr: stderr.text() };
}
