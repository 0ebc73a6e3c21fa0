// The one way a settings hook's command runs: `bash -c <command>` in a process group of its own, the event's
// JSON on stdin, its output bounded, and the whole group killed on timeout or abort. Whatever the command does
// (hang, flood, crash, close stdin early), this resolves: it never rejects and never outlives its timeout by more
// than the kill. The sandbox, when on, confines the command (`confine`).
import { spawn } from "node:child_process";
import { type ConfineSpawn, ProcessGroupSet, type SpawnSpec } from "../../core/index.js";

/** Each of stdout and stderr keeps at most this much; the rest is dropped (and said). */
export const MAX_HOOK_OUTPUT_BYTES = 256 * 1024;

export interface HookCommandOptions {
	cwd: string;
	/** The JSON written to the command's stdin. */
	input: string;
	/** Variables added to loom's environment ($CLAUDE_PROJECT_DIR, $LOOM_PROJECT_DIR). */
	env: Record<string, string>;
	timeoutMs: number;
	signal?: AbortSignal;
	/** The groups that die with the session (and with loom, however it exits). */
	groups?: ProcessGroupSet;
	/**
	 * The command may outlive loom (SessionEnd, which runs as loom leaves): it is not tracked, nothing waits for
	 * it, its output is dropped, and coreutils' `timeout` kills its group at the timeout even after loom is gone.
	 * The promise resolves as soon as it started.
	 */
	outlive?: boolean;
	/** The sandbox's launcher: the command runs as it returns (unconfined without it). */
	confine?: ConfineSpawn;
}

export interface HookCommandResult {
	/** Null when it did not exit on its own (killed, or it could not start). */
	exitCode: number | null;
	stdout: string;
	stderr: string;
	timedOut: boolean;
	aborted: boolean;
	/** Why it could not start (bash missing, cwd gone). */
	spawnError?: string;
}

/** How long the output pipes may stay open after the command exited. */
const CLOSE_GRACE_MS = 1000;

const fallbackGroups = new ProcessGroupSet();

/** `bash -c command` as it is to be spawned: confined where the sandbox is on. Throws where it refuses to run. */
function hookSpawn(command: string, options: HookCommandOptions): SpawnSpec {
	const spec: SpawnSpec = { command: "bash", args: ["-c", command], cwd: options.cwd, env: { ...process.env, ...options.env } };
	return options.confine ? options.confine(spec) : spec;
}

/** Runs one hook command to its end, its timeout, or the signal; see the file's header. */
export function runHookCommand(command: string, options: HookCommandOptions): Promise<HookCommandResult> {
	if (options.outlive) return startOutliving(command, options);
	const groups = options.groups ?? fallbackGroups;
	return new Promise((resolve) => {
		const out = new BoundedText();
		const err = new BoundedText();
		let timedOut = false;
		let aborted = false;
		let settled = false;
		let child: ReturnType<typeof spawn>;
		try {
			const spec = hookSpawn(command, options);
			child = spawn(spec.command, spec.args, {
				cwd: spec.cwd,
				env: spec.env,
				detached: true,
				stdio: ["pipe", "pipe", "pipe"],
			});
		} catch (error) {
			resolve({ exitCode: null, stdout: "", stderr: "", timedOut: false, aborted: false, spawnError: (error as Error).message });
			return;
		}
		const pgid = child.pid;
		if (pgid !== undefined) groups.track(pgid);
		const killGroup = () => {
			if (pgid !== undefined) groups.kill(pgid);
		};
		const timer = setTimeout(() => {
			timedOut = true;
			killGroup();
		}, options.timeoutMs);
		timer.unref();
		const onAbort = () => {
			aborted = true;
			killGroup();
		};
		if (options.signal?.aborted) onAbort();
		else options.signal?.addEventListener("abort", onAbort, { once: true });
		const finish = (exitCode: number | null, spawnError?: string) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			options.signal?.removeEventListener("abort", onAbort);
			// The command is done; anything it left running in its group (a `sleep &`) goes with it.
			killGroup();
			resolve({ exitCode, stdout: out.text(), stderr: err.text(), timedOut, aborted, ...(spawnError ? { spawnError } : {}) });
		};
		child.stdout!.on("data", (chunk: Buffer) => out.add(chunk));
		child.stderr!.on("data", (chunk: Buffer) => err.add(chunk));
		child.on("error", (error) => finish(null, error.message));
		// On exit the group goes (a `sleep &` holding the pipes with it), then "close" brings the last output; a
		// pipe held by something outside the group cannot keep the result waiting past a short grace.
		let exitCode: number | null = null;
		child.on("exit", (code) => {
			exitCode = timedOut || aborted ? null : code;
			killGroup();
			setTimeout(() => finish(exitCode), CLOSE_GRACE_MS).unref();
		});
		child.on("close", () => finish(exitCode));
		// A command that never reads its stdin (or exits first) must not make loom fail on EPIPE.
		child.stdin!.on("error", () => {});
		child.stdin!.end(options.input);
	});
}

function startOutliving(command: string, options: HookCommandOptions): Promise<HookCommandResult> {
	const started = (spawnError?: string): HookCommandResult => ({ exitCode: null, stdout: "", stderr: "", timedOut: false, aborted: false, ...(spawnError ? { spawnError } : {}) });
	try {
		const seconds = String(Math.max(1, Math.ceil(options.timeoutMs / 1000)));
		// Not --foreground: timeout leads the group and kills all of it. It is the sandbox's parent, so a confined
		// command outlives loom too.
		const spec = hookSpawn(command, options);
		const child = spawn("timeout", ["-s", "KILL", seconds, spec.command, ...spec.args], {
			cwd: spec.cwd,
			env: spec.env,
			detached: true,
			stdio: ["pipe", "ignore", "ignore"],
		});
		child.on("error", () => {});
		child.stdin!.on("error", () => {});
		child.stdin!.end(options.input);
		child.unref();
		(child.stdin as unknown as { unref?: () => void }).unref?.();
		return Promise.resolve(started());
	} catch (error) {
		return Promise.resolve(started((error as Error).message));
	}
}

/** Collects up to MAX_HOOK_OUTPUT_BYTES of a stream and says how much more was dropped. */
class BoundedText {
	private chunks: Buffer[] = [];
	private kept = 0;
	private dropped = 0;

	add(chunk: Buffer): void {
		const room = MAX_HOOK_OUTPUT_BYTES - this.kept;
		if (room <= 0) {
			this.dropped += chunk.length;
			return;
		}
		const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
		this.chunks.push(part);
		this.kept += part.length;
		this.dropped += chunk.length - part.length;
	}

	text(): string {
		const text = Buffer.concat(this.chunks).toString("utf8");
		return this.dropped > 0 ? `${text}\n[… ${this.dropped} more bytes of output dropped]` : text;
	}
}
