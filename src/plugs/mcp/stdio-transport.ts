// The stdio transport for a local server: loom spawns it in a process group of its own and speaks JSON-RPC
// over its stdin and stdout, one message a line. Unlike the SDK's transport, the whole group is ended (the
// server and anything it started) when the server is closed, when it dies, and when loom exits; its stderr is
// kept (the last few KB), never drawn, so a failure can say why. Loaded only once a server is configured.
import { type ChildProcess, spawn } from "node:child_process";
import { ReadBuffer, STDIO_DEFAULT_MAX_BUFFER_SIZE, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { type ConfineSpawn, isDirectory, ProcessGroupSet } from "../../core/index.js";
import type { StdioServerSpec } from "./mcp-config.js";

/** How much of the server's stderr is kept for messages. */
const STDERR_TAIL_BYTES = 4096;
/** How long a closed server may take to leave after its stdin ends, and again after SIGTERM. */
const CLOSE_GRACE_MS = 1000;
/** How long the pipes of a server that exited are read before its exit is reported. */
const PIPE_DRAIN_MS = 500;
/** A line on stdout longer than the SDK's buffer (10 MB) is no message: the server is stopped. */
const MAX_LINE_MB = STDIO_DEFAULT_MAX_BUFFER_SIZE / (1024 * 1024);

/** The groups of the servers running: whatever way loom leaves, they are killed as it exits. */
export const serverProcessGroups = new ProcessGroupSet();

export class ProcessGroupTransport implements Transport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: (message: JSONRPCMessage) => void;
	private child: ChildProcess | undefined;
	private readonly buffer = new ReadBuffer();
	private stderr = "";
	/** Why loom stopped the server, when it did so for what the server did. */
	private stoppedBecause: string | undefined;
	private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
	private exited: Promise<void> = Promise.resolve();

	/** `confine`: the sandbox's launcher, which the server starts through (it may throw why it cannot run). */
	constructor(
		private readonly spec: StdioServerSpec,
		private readonly confine?: ConfineSpawn,
	) {}

	/** The server's process id (its group's id too), once started. */
	get pid(): number | undefined {
		return this.child?.pid;
	}

	/** "exited with code 1", "was killed by SIGKILL", "was stopped: …" (after "the server"); undefined while it runs. */
	get exitDescription(): string | undefined {
		if (!this.exit) return undefined;
		if (this.stoppedBecause !== undefined) return `was stopped: ${this.stoppedBecause}`;
		return this.exit.signal ? `was killed by ${this.exit.signal}` : `exited with code ${this.exit.code}`;
	}

	/** The end of what the server wrote to stderr. */
	get stderrTail(): string {
		return this.stderr;
	}

	start(): Promise<void> {
		if (this.child) throw new Error("This transport was started already.");
		if (!isDirectory(this.spec.cwd)) return Promise.reject(new Error(`its working directory ${this.spec.cwd} does not exist`));
		const spec = { command: this.spec.command, args: this.spec.args, cwd: this.spec.cwd, env: { ...process.env, ...this.spec.env } };
		let launched;
		try {
			launched = this.confine ? this.confine(spec) : spec;
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			return Promise.reject(code === "ENOENT" ? spawnError(error as NodeJS.ErrnoException, this.spec) : (error as Error));
		}
		return new Promise((resolveStart, rejectStart) => {
			const child = spawn(launched.command, launched.args, {
				cwd: launched.cwd,
				env: launched.env,
				stdio: ["pipe", "pipe", "pipe"],
				detached: true,
			});
			this.child = child;
			const pipesClosed = new Promise<void>((closed) => child.once("close", () => closed()));
			this.exited = new Promise((resolveExit) => {
				child.once("exit", (code, signal) => {
					this.exit = { code, signal };
					// Whatever the server started goes with it; then its pipes close, and its last words on
					// stderr are read before anyone is told.
					if (child.pid !== undefined) serverProcessGroups.kill(child.pid);
					void Promise.race([pipesClosed, delay(PIPE_DRAIN_MS)]).then(() => {
						resolveExit();
						this.onclose?.();
					});
				});
			});
			child.once("error", (error) => {
				rejectStart(spawnError(error, this.spec));
				this.onerror?.(error);
			});
			child.once("spawn", () => {
				if (child.pid !== undefined) serverProcessGroups.track(child.pid);
				resolveStart();
			});
			child.stdout!.on("data", (chunk: Buffer) => this.receive(chunk));
			child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
				this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL_BYTES);
			});
			// A server gone mid-write: the exit event reports it.
			child.stdin!.on("error", () => {});
			child.stdout!.on("error", () => {});
		});
	}

	async send(message: JSONRPCMessage): Promise<void> {
		const stdin = this.child?.stdin;
		if (!stdin || this.exit || !stdin.writable) throw new Error("The server is not running.");
		if (!stdin.write(serializeMessage(message))) await new Promise<void>((drained) => stdin.once("drain", drained));
	}

	/** Ends the server politely (stdin closed), then with SIGTERM, then SIGKILL, each after a grace period. */
	async close(): Promise<void> {
		const child = this.child;
		if (!child || this.exit || child.pid === undefined) return;
		const pid = child.pid;
		child.stdin?.end();
		if (await this.exitsWithin(CLOSE_GRACE_MS)) return;
		serverProcessGroups.signal(pid, "SIGTERM");
		if (await this.exitsWithin(CLOSE_GRACE_MS)) return;
		serverProcessGroups.kill(pid);
		await this.exited;
	}

	private exitsWithin(ms: number): Promise<boolean> {
		return Promise.race([this.exited.then(() => true), delay(ms).then(() => false)]);
	}

	private receive(chunk: Buffer): void {
		// Stopped for what it wrote: the rest of its output is not read.
		if (this.stoppedBecause !== undefined) return;
		try {
			this.buffer.append(chunk);
		} catch (error) {
			// A line longer than the buffer holds: nothing after it can be trusted.
			this.stoppedBecause = `it wrote over ${MAX_LINE_MB} MB to stdout without a line break (an MCP server's stdout carries only JSON-RPC messages, one a line; logs go to stderr)`;
			this.onerror?.(error as Error);
			void this.close();
			return;
		}
		for (;;) {
			let message: JSONRPCMessage | null;
			try {
				message = this.buffer.readMessage();
			} catch (error) {
				// A line that is not a JSON-RPC message (a server logging to stdout): skipped.
				this.onerror?.(error as Error);
				continue;
			}
			if (message === null) break;
			this.onmessage?.(message);
		}
	}
}

function spawnError(error: NodeJS.ErrnoException, spec: StdioServerSpec): Error {
	if (error.code === "ENOENT") return new Error(`command not found: ${spec.command} (looked up in PATH, from ${spec.cwd})`);
	if (error.code === "EACCES") return new Error(`${spec.command} is not executable`);
	return new Error(`${spec.command} could not be started: ${error.message}`);
}

/** Resolves after `ms`, without keeping the process alive for it. */
function delay(ms: number): Promise<void> {
	return new Promise((resolveDelay) => setTimeout(resolveDelay, ms).unref());
}
