// A session's background shells: commands bash started with `background: true`, each running on in a process
// group of its own (tracked in the session's set, so disposing the session or loom's exit kills it), its output
// collected as bash collects a command's (bounded tail in memory, the rest in a capped file), handed out in
// pieces: each read returns what came since the previous one.
import type { BackgroundShellSummary } from "../core/index.js";
import { formatCollectedOutput, OutputCollector, type CollectorLimits } from "./output-collector.js";
import { type RunCommandOptions, type RunCommandOutcome, runCommand } from "./run-command.js";

/** How a background command is started: what bash would start in the foreground, minus what bash itself watches. */
export type BackgroundSpawn = Omit<RunCommandOptions, "onChunk" | "resume" | "signal" | "timeoutSeconds">;

export interface BackgroundShellsOptions extends CollectorLimits {
	/** Applied to every piece of output before the model sees it (the secret mask). */
	redact?: (text: string) => string;
	/** Told whenever a shell starts or ends (the session reports the list to its interfaces). */
	onChange?: (shells: BackgroundShellSummary[]) => void;
}

/** What one read of a shell gives: the new output as the model reads it, and where the shell is. */
export interface BackgroundRead {
	output: string;
	shell: BackgroundShellSummary;
	/** How it ended, once it has. */
	outcome?: RunCommandOutcome;
}

/** How long start() waits for the command's first output (or its end) before it returns without any. */
const FIRST_OUTPUT_WAIT_MS = 2000;
/** Once output comes, start() returns when it pauses this long, or after FIRST_LINES lines, or MORE_OUTPUT_CAP_MS. */
const QUIET_MS = 250;
const FIRST_LINES = 20;
const MORE_OUTPUT_CAP_MS = 1500;
/** The longest bash_output may wait for new output. */
export const MAX_READ_WAIT_SECONDS = 120;

class BackgroundShell {
	private collector: OutputCollector;
	private readonly stopper = new AbortController();
	private newlines = 0;
	/** Told of each chunk and of the end (see nextOutput). */
	private waiters = new Set<() => void>();
	outcome?: RunCommandOutcome;
	readonly ended: Promise<RunCommandOutcome>;

	constructor(
		readonly id: string,
		readonly command: string,
		readonly startedAt: number,
		private readonly limits: CollectorLimits,
		spawn: BackgroundSpawn,
		onEnd: () => void,
	) {
		this.collector = new OutputCollector(limits);
		this.ended = runCommand({
			...spawn,
			signal: this.stopper.signal,
			onChunk: (chunk) => {
				for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) this.newlines++;
				const accepted = this.collector.write(chunk);
				this.wake();
				return accepted;
			},
			resume: () => this.collector.drained(),
		}).then((outcome) => {
			this.outcome = outcome;
			this.wake();
			onEnd();
			return outcome;
		});
	}

	get summary(): BackgroundShellSummary {
		const status = !this.outcome ? "running" : this.outcome.aborted ? "killed" : "exited";
		return { id: this.id, command: this.command, status, ...(status === "exited" ? { exitCode: this.outcome?.exitCode ?? null } : {}), startedAt: this.startedAt };
	}

	/** Resolves once the command has printed its first lines (and paused), ended, or had its time to. */
	async started(waitMs: number): Promise<void> {
		if (!(await this.nextOutput(waitMs))) return;
		const since = Date.now();
		while (!this.outcome && this.newlines < FIRST_LINES && Date.now() - since < MORE_OUTPUT_CAP_MS) {
			if (!(await this.nextOutput(QUIET_MS))) return;
		}
	}

	/** Output not read yet, in bytes. */
	get unread(): number {
		return this.collector.totalBytes;
	}

	/** True once new output comes or the command ends (at once if it has), false after `waitMs` without either. */
	nextOutput(waitMs: number): Promise<boolean> {
		if (this.outcome) return Promise.resolve(true);
		return new Promise((resolve) => {
			const done = (value: boolean) => {
				clearTimeout(timer);
				this.waiters.delete(wake);
				resolve(value);
			};
			const wake = () => done(true);
			const timer = setTimeout(() => done(false), waitMs);
			this.waiters.add(wake);
		});
	}

	private wake(): void {
		for (const wake of [...this.waiters]) wake();
	}

	/** The output since the previous read; the next read starts after it. */
	async read(): Promise<{ text: string; bytes: number }> {
		const finished = this.collector;
		this.collector = new OutputCollector(this.limits);
		const collected = await finished.finish();
		return { text: collected.totalBytes === 0 ? "" : formatCollectedOutput(collected), bytes: collected.totalBytes };
	}

	/** Stops the command's whole process group (SIGTERM, SIGKILL after the grace) and resolves once it has settled. */
	stop(): Promise<RunCommandOutcome> {
		this.stopper.abort();
		return this.ended;
	}
}

export class BackgroundShells {
	private readonly shells = new Map<string, BackgroundShell>();
	private counter = 0;

	constructor(private readonly options: BackgroundShellsOptions = {}) {}

	/** Every shell of the session, oldest first. */
	list(): BackgroundShellSummary[] {
		return [...this.shells.values()].map((shell) => shell.summary);
	}

	/** Starts `spawn` and returns its first read once it has printed its first lines, ended, or had `waitMs`. */
	async start(spawn: BackgroundSpawn, waitMs = FIRST_OUTPUT_WAIT_MS): Promise<BackgroundRead> {
		const id = `bg${++this.counter}`;
		const shell = new BackgroundShell(id, spawn.command, Date.now(), this.options, spawn, () => this.changed());
		this.shells.set(id, shell);
		// A start that fails (no shell) rejects `ended` at once: the call fails and the shell is not kept.
		shell.ended.catch(() => this.shells.delete(id));
		await Promise.race([shell.started(waitMs), shell.ended]);
		this.changed();
		return this.read(id);
	}

	/**
	 * What shell `id` printed since the last read; with `waitSeconds`, when there is none yet, waits that long at
	 * most for some (or for the shell's end). Throws for an unknown id.
	 */
	async read(id: string, waitSeconds = 0, signal?: AbortSignal): Promise<BackgroundRead> {
		const shell = this.find(id);
		if (waitSeconds > 0 && shell.unread === 0 && !shell.outcome && !signal?.aborted) {
			// The run's signal outlives this call: its listener goes with the wait.
			let onAbort = () => {};
			const aborted = new Promise<void>((resolve) => (onAbort = () => resolve()));
			signal?.addEventListener("abort", onAbort, { once: true });
			try {
				await Promise.race([shell.nextOutput(Math.min(waitSeconds, MAX_READ_WAIT_SECONDS) * 1000), aborted]);
			} finally {
				signal?.removeEventListener("abort", onAbort);
			}
		}
		const { text } = await shell.read();
		return { output: this.options.redact ? this.options.redact(text) : text, shell: shell.summary, ...(shell.outcome ? { outcome: shell.outcome } : {}) };
	}

	/** Stops shell `id` (its process group) and returns its last output. Throws for an unknown id. */
	async kill(id: string): Promise<BackgroundRead> {
		await this.find(id).stop();
		return this.read(id);
	}

	/** Asks every running shell's group to stop, without waiting (the session is going; its set kills what is left). */
	stopAll(): void {
		for (const shell of this.shells.values()) if (!shell.outcome) void shell.stop();
	}

	private find(id: string): BackgroundShell {
		const shell = this.shells.get(id.trim());
		if (!shell) {
			const known = [...this.shells.keys()];
			throw new Error(`No background shell ${id}${known.length > 0 ? `; this session's are ${known.join(", ")}` : ": none was started in this session"}.`);
		}
		return shell;
	}

	private changed(): void {
		this.options.onChange?.(this.list());
	}
}
