// The real MCP servers the tests run (dev dependencies), started the way a user's configuration would start
// them: server-everything (tools, images, resources, progress, errors) and server-filesystem.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isRunning } from "./process-state.js";
import { waitFor } from "./wait-for.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SERVERS = join(ROOT, "node_modules", "@modelcontextprotocol");
export const EVERYTHING_ENTRY = join(SERVERS, "server-everything", "dist", "index.js");
export const FILESYSTEM_ENTRY = join(SERVERS, "server-filesystem", "dist", "index.js");
const LOOPBACK_LISTEN = join(ROOT, "test", "support", "mcp", "loopback-listen.mjs");
const RECORD_STDIN = join(ROOT, "test", "support", "mcp", "record-stdin.mjs");
const ODD_SERVER = join(ROOT, "test", "support", "mcp", "odd-server.mjs");

/** The pid written to `file` (by everythingWithPid), or 0 while there is none. */
export function pidIn(file: string): number {
	try {
		return Number(readFileSync(file, "utf8").trim()) || 0;
	} catch {
		return 0;
	}
}

/** Waits for a pid to be written to `file`. */
export function waitForPid(file: string): Promise<number> {
	return waitFor(() => pidIn(file), Boolean, { what: `a pid in ${file}` });
}

/** Resolves true once none of `pids` is running, zombies counted as gone (fails the test after the wait's timeout). */
export function processesGone(pids: number[]): Promise<boolean> {
	return waitFor(() => pids.every((pid) => !isRunning(pid)), Boolean, { what: `processes ${pids.join(", ")} to end` });
}

/** A stdio server entry of a configuration: server-everything over stdio. */
export function everythingStdio(extra: Record<string, unknown> = {}): Record<string, unknown> {
	return { command: process.execPath, args: [EVERYTHING_ENTRY, "stdio"], ...extra };
}

/** A server of our own with what real servers sometimes send (see odd-server.mjs). */
export function oddServerStdio(): Record<string, unknown> {
	return { command: process.execPath, args: [ODD_SERVER] };
}

/** server-filesystem over stdio, allowed into `directories`. */
export function filesystemStdio(directories: string[]): Record<string, unknown> {
	return { command: process.execPath, args: [FILESYSTEM_ENTRY, ...directories] };
}

/**
 * server-everything through a shell that first writes the server's pid to `pidFile` (and, with `childPidFile`,
 * starts a `sleep` in the background, as a server's helper process, and writes its pid there), so a test can
 * kill the server or look for what it left behind. `exec` keeps the pid: the shell becomes the server.
 */
export function everythingWithPid(pidFile: string, childPidFile?: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
	const helper = childPidFile ? `sleep 300 & echo $! > '${childPidFile}'; ` : "";
	return { command: "sh", args: ["-c", `${helper}echo $$ > '${pidFile}'; exec '${process.execPath}' '${EVERYTHING_ENTRY}' stdio`], ...extra };
}

/** server-everything over stdio, every message loom sends it also written to `log`. */
export function everythingRecorded(log: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
	return { command: process.execPath, args: [RECORD_STDIN, log, process.execPath, EVERYTHING_ENTRY, "stdio"], ...extra };
}

/** The JSON-RPC messages in a log written by everythingRecorded. */
export function recordedMessages(log: string): any[] {
	let text = "";
	try {
		text = readFileSync(log, "utf8");
	} catch {}
	return text
		.split("\n")
		.filter((line) => line.trim() !== "")
		.map((line) => JSON.parse(line));
}

export interface HttpServer {
	child: ChildProcess;
	port: number;
	/** The endpoint loom connects to (/mcp for streamable HTTP, /sse for SSE). */
	url: string;
	stop(): Promise<void>;
}

/** server-everything serving streamable HTTP (or SSE) on 127.0.0.1, on `port` or one the system picks. */
export async function startEverythingHttp(transport: "streamableHttp" | "sse", port = 0): Promise<HttpServer> {
	const child = spawn(process.execPath, ["--import", LOOPBACK_LISTEN, EVERYTHING_ENTRY, transport], {
		env: { ...process.env, PORT: String(port) },
		stdio: ["ignore", "ignore", "pipe"],
	});
	let stderr = "";
	child.stderr!.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
	const listening = await waitFor(
		() => {
			if (child.exitCode !== null) throw new Error(`server-everything ${transport} exited (${child.exitCode}): ${stderr}`);
			return /listening on 127\.0\.0\.1:(\d+)/.exec(stderr);
		},
		Boolean,
		{ timeoutMs: 15_000, what: `server-everything ${transport} to listen`, show: () => stderr },
	);
	const actualPort = Number(listening![1]);
	const path = transport === "sse" ? "/sse" : "/mcp";
	return {
		child,
		port: actualPort,
		url: `http://127.0.0.1:${actualPort}${path}`,
		stop: () =>
			new Promise((done) => {
				if (child.exitCode !== null || child.signalCode !== null) return done();
				child.once("exit", () => done());
				child.kill("SIGKILL");
			}),
	};
}
