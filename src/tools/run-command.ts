// Runs one shell command in its own process group and settles promptly, whatever its children do.
// Node's own spawn, without a process library: a tool loop runs a command a turn, and a library's option
// normalising (a copy of the environment among it) costs milliseconds each time.
import { type ChildProcess, spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { type ConfineSpawn, ProcessGroupSet } from "../core/index.js";

// The process groups of the commands the tools run. A session's own set is within this one, so that the CLI,
// leaving, ends every command's background jobs whichever session started them.

/** Every command's group (a tool made without a session's set tracks its commands here alone). */
export const commandProcessGroups = new ProcessGroupSet();

/** A set for one session's commands: disposing the session kills them without touching another session's. */
export function sessionProcessGroups(): ProcessGroupSet {
	return new ProcessGroupSet(commandProcessGroups);
}

/** Kills every command's process group, background jobs included (SIGKILL, synchronous). */
export function killAllBashProcesses(): void {
	commandProcessGroups.killAll();
}

export interface RunCommandOptions {
	shell: string;
	command: string;
	cwd: string;
	env?: NodeJS.ProcessEnv;
	/** Seconds; undefined for no limit. */
	timeoutSeconds?: number;
	signal?: AbortSignal;
	/** Between SIGTERM and SIGKILL to the group. */
	killGraceMs: number;
	/** Every output chunk, stdout and stderr merged in arrival order. Return false to pause until resume() resolves. */
	onChunk: (chunk: Buffer) => boolean;
	resume: () => Promise<void>;
	/** Where the command's process group is tracked (its owner's set); default: the tools' own. */
	processGroups?: ProcessGroupSet;
	/** The sandbox's launcher: the shell is started as it says (may throw why it cannot run). */
	confine?: ConfineSpawn;
}

export interface RunCommandOutcome {
	exitCode: number | null;
	signal: NodeJS.Signals | null;
	timedOut: boolean;
	aborted: boolean;
}

/** Why the shell did not start, without an echo of the command (a rejected long command would flood the model). */
function spawnFailure(error: NodeJS.ErrnoException | undefined, options: RunCommandOptions): string {
	if (error?.code === "E2BIG") {
		const kb = Math.round(Buffer.byteLength(options.command) / 1024);
		return `The command is too long to run (${kb} KB; the system takes at most 128 KB in one command). Write long content with the write tool, or put the script in a file and run that.`;
	}
	return `Could not start ${options.shell}: ${error?.message ?? error?.code ?? "unknown error"}`;
}

/**
 * Starts the shell: the child, or why it could not start. Node throws some failures (E2BIG) and emits the others
 * (ENOENT, EACCES) on the next tick, with no pid in both cases.
 */
async function startShell(options: RunCommandOptions): Promise<ChildProcess> {
	const spec = { command: options.shell, args: ["-c", options.command], cwd: options.cwd, env: options.env };
	const launched = options.confine ? options.confine(spec) : spec;
	let child: ChildProcess;
	try {
		child = spawn(launched.command, launched.args, { cwd: launched.cwd, env: launched.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
	} catch (error) {
		throw new Error(spawnFailure(error as NodeJS.ErrnoException, options));
	}
	if (child.pid !== undefined) return child;
	const error = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
		child.once("error", resolve);
		child.once("close", () => resolve(undefined));
	});
	throw new Error(spawnFailure(error, options));
}

/** After the shell exits, how long output may stay quiet before pipes held by background children are dropped. */
const QUIET_AFTER_EXIT_MS = 200;
/** After the shell exits, the longest we wait for its pipes at all (a background job may keep writing). */
const MAX_WAIT_AFTER_EXIT_MS = 2000;
/** After a kill, the longest we wait beyond the KILL grace before settling regardless. */
const SETTLE_AFTER_KILL_MS = 400;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function runCommand(options: RunCommandOptions): Promise<RunCommandOutcome> {
	const child = await startShell(options);
	// Errors after the start (a failed kill) are not the command's outcome; unheard, they would throw.
	child.on("error", () => {});

	const pid = child.pid!;
	const groups = options.processGroups ?? commandProcessGroups;
	groups.track(pid);

	const streams = [child.stdout, child.stderr].filter((s): s is Readable => s !== null && s !== undefined);
	let lastDataAt = Date.now();
	let paused = false;
	const onData = (chunk: Buffer) => {
		lastDataAt = Date.now();
		if (!options.onChunk(chunk) && !paused) {
			paused = true;
			for (const stream of streams) stream.pause();
			void options.resume().then(() => {
				paused = false;
				lastDataAt = Date.now();
				for (const stream of streams) if (!stream.destroyed) stream.resume();
			});
		}
	};
	const streamsEnded = Promise.all(
		streams.map(
			(stream) =>
				new Promise<void>((resolve) => {
					stream.on("data", onData);
					stream.once("end", resolve);
					stream.once("close", resolve);
					stream.once("error", () => resolve());
				}),
		),
	);
	let allEnded = false;
	void streamsEnded.then(() => {
		allEnded = true;
	});

	const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
		child.once("exit", (code, signal) => resolve({ code, signal }));
	});

	let killReason: "timeout" | "abort" | undefined;
	let releaseKilled: () => void = () => {};
	const killDeadline = new Promise<void>((resolve) => {
		releaseKilled = resolve;
	});
	const kill = (reason: "timeout" | "abort") => {
		if (killReason) return;
		killReason = reason;
		groups.terminate(pid, options.killGraceMs);
		// Even a process stuck in the kernel must not hold the agent: settle after the grace regardless.
		setTimeout(releaseKilled, options.killGraceMs + SETTLE_AFTER_KILL_MS).unref();
	};

	const timeoutTimer =
		options.timeoutSeconds !== undefined ? setTimeout(() => kill("timeout"), options.timeoutSeconds * 1000) : undefined;
	const onAbort = () => kill("abort");
	if (options.signal?.aborted) onAbort();
	else options.signal?.addEventListener("abort", onAbort, { once: true });

	try {
		const exit = await Promise.race([exited, killDeadline.then(() => undefined)]);
		if (exit) await drainAfterExit();
		return {
			exitCode: exit?.code ?? null,
			signal: exit?.signal ?? null,
			timedOut: killReason === "timeout",
			aborted: killReason === "abort",
		};
	} finally {
		if (timeoutTimer) clearTimeout(timeoutTimer);
		options.signal?.removeEventListener("abort", onAbort);
		for (const stream of streams) {
			stream.off("data", onData);
			stream.destroy();
		}
		// A group with background jobs stays tracked so exit can kill it; a terminated one is forgotten once killed.
		if (!killReason) groups.release(pid);
	}

	/** Reads what the shell left in the pipes, without waiting on children that keep them open. */
	async function drainAfterExit(): Promise<void> {
		const exitedAt = Date.now();
		const cap = killReason ? SETTLE_AFTER_KILL_MS : MAX_WAIT_AFTER_EXIT_MS;
		while (!allEnded) {
			const now = Date.now();
			if (now - exitedAt >= cap) return;
			if (!paused && now - Math.max(lastDataAt, exitedAt) >= QUIET_AFTER_EXIT_MS) return;
			await Promise.race([streamsEnded, delay(20)]);
		}
	}
}
