// One session's checkpoints: the work tree recorded before each prompt's run changes files and when it ends
// (tree mode), or, where that cannot be done, the pre-images of the files write and edit change (files mode).
// The "before" is taken when the run's first call that may change files is about to run, and only runs that had
// one get an "after": a prompt whose tools only read costs no git process. Snapshots run one at a time. Also the
// FileCheckpoints port a session rewinds through.
import { randomBytes } from "node:crypto";
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatSize, onProcessExit } from "../../core/index.js";
import type { FileCheckpoints, FilesRestore } from "../../core/index.js";
import { DEFAULT_LIMITS, type SkippedFile, type SnapshotLimits } from "./changed-files.js";
import { type LogUpdate, LogWriter, type RunRecord, logPath } from "./checkpoint-log.js";
import { gitAvailable } from "./git.js";
import { lineageRuns } from "./lineage.js";
import { capturePreimage, contentHash, workTreePath } from "./preimages.js";
import { checkpointsRoot, findProjectRoot, notAProject, projectKey } from "./project-root.js";
import { pruneCheckpoints } from "./prune.js";
import { filesRestore, nothingToRestore, planFilesRestore, planTreeRestore } from "./restore-plan.js";
import { firstTimeSaid, unreportedSkips } from "./reported-skips.js";
import { ShadowRepo } from "./shadow-repo.js";

/** Which session the runs belong to; asked at each run, since /new, /resume and /fork change it. */
export interface SessionIdentity {
	id: string;
	/** Undefined with --no-session. */
	file: string | undefined;
	/** The session file this one was forked from, if any. */
	parentFile?: string;
}

export interface CheckpointerOptions {
	home: string;
	cwd: string;
	limits?: Partial<SnapshotLimits>;
	session: () => SessionIdentity;
	/** Tells the user something: a limit of the checkpoints (said once), files left out. */
	notify(level: "info" | "warning", text: string): void;
}

/** Where a project's checkpoints go, and how this session records them. */
interface Setup {
	/** The project's folder under <loom home>/checkpoints. */
	dir: string;
	workTree: string;
	/** Undefined in files mode. */
	repo?: ShadowRepo;
	/** Why the work tree is not snapshotted (files mode). */
	reason?: string;
}

interface Snapshot {
	tree: string;
	skipped: SkippedFile[];
	outside?: string[];
}

interface ActiveRun {
	record: RunRecord;
	/** The session the run belongs to (fixed when it starts). */
	sessionId: string;
	identity: SessionIdentity;
	/** Set once the project's folder is known, before `ready` settles. */
	log?: LogWriter;
	/**
	 * Started by the run's first call that may change files; settles when the run's "before" is recorded (or
	 * could not be). Undefined while no such call came: the run changed nothing, so nothing is recorded.
	 */
	ready?: Promise<void>;
	/** Paths whose pre-image this run holds (files mode). */
	captured: Set<string>;
}

export class Checkpointer implements FileCheckpoints {
	private readonly limits: SnapshotLimits;
	private setupPromise: Promise<Setup> | undefined;
	/** Snapshots one after another: a run's start waits for the previous run's end to be recorded. */
	private queue: Promise<unknown> = Promise.resolve();
	private active: ActiveRun | undefined;
	/** This process's own index in the shadow repository. */
	private readonly indexName = `${process.pid}-${randomBytes(3).toString("hex")}`;
	private warned = false;
	private resolvedRepo: ShadowRepo | undefined;
	private readonly logs = new Map<string, LogWriter>();
	private readonly forgetExitHook: () => void;

	constructor(private readonly options: CheckpointerOptions) {
		this.limits = { ...DEFAULT_LIMITS, ...options.limits };
		this.forgetExitHook = onProcessExit(() => this.dropIndexNow());
	}

	/** A prompt's run starts; nothing is recorded until a call that may change files comes. */
	beginRun(): void {
		const record: RunRecord = { run: randomBytes(6).toString("hex"), at: new Date().toISOString(), mode: "tree" };
		const identity = this.options.session();
		this.active = { record, sessionId: identity.id, identity, captured: new Set() };
	}

	/** The run's first prompt is in the session file as this entry. */
	bindPrompt(entryId: string): void {
		const run = this.active;
		if (!run || run.record.prompt !== undefined) return;
		run.record.prompt = entryId;
		void run.ready?.then(() => this.write(run, { prompt: entryId }));
	}

	/**
	 * Before a tool call that may change files: the run's "before" is recorded by the first such call (the others
	 * wait for it); in files mode keeps pre-images.
	 */
	async beforeChange(changedPaths: readonly string[]): Promise<void> {
		const run = this.active;
		if (!run) return;
		run.ready ??= this.enqueue(async () => {
			run.log = this.logFor(await this.setup(), run.identity);
			await this.recordBefore(run);
		});
		await run.ready;
		if (run.record.mode !== "files") return;
		const setup = await this.setup();
		for (const given of changedPaths) {
			const path = workTreePath(setup.workTree, this.options.cwd, given);
			if (path === undefined || run.captured.has(path)) continue;
			run.captured.add(path);
			const store = join("preimages", run.sessionId, run.record.run, String(run.captured.size));
			const preimage = capturePreimage(setup.workTree, path, setup.dir, store, this.limits.maxFileBytes);
			run.record.preimages = [...(run.record.preimages ?? []), preimage];
			this.write(run, { preimage });
		}
	}

	/**
	 * The run ended: its "after" is recorded. The session waits for this before it says the run ended, so an edit
	 * the user makes once the run is over is never taken for the agent's.
	 */
	endRun(): Promise<void> {
		const run = this.active;
		this.active = undefined;
		if (!run) return Promise.resolve();
		const ready = run.ready;
		if (!ready) {
			// Nothing could have changed a file: the prompt is recorded as such (a line in the log, no snapshot),
			// without holding the run's end.
			void this.enqueue(() => this.recordUnchanged(run)).catch(() => undefined);
			return Promise.resolve();
		}
		return this.enqueue(() => ready.then(() => this.recordAfter(run))).catch(() => undefined);
	}

	/** Waits for every recording in progress. */
	settled(): Promise<void> {
		return this.queue.then(() => undefined);
	}

	async checkpointed(promptEntryIds: readonly string[]): Promise<ReadonlySet<string>> {
		const runs = await this.runs();
		const wanted = new Set(promptEntryIds);
		return new Set(runs.flatMap((run) => (run.prompt !== undefined && wanted.has(run.prompt) ? [run.prompt] : [])));
	}

	async prepare(promptEntryId: string): Promise<FilesRestore | string> {
		await this.settled();
		const all = await this.runs();
		const index = all.findIndex((run) => run.prompt === promptEntryId);
		if (index === -1) return "No checkpoint of the files was recorded for this prompt (it was sent during a run, or before checkpoints were kept).";
		const setup = await this.setup();
		// Runs that changed nothing have no snapshot: the files before the first later run that could change
		// them are the files before this prompt, as far as the agent goes.
		const first = all.findIndex((run, at) => at >= index && run.unchanged !== true);
		if (first === -1) return filesRestore(setup.workTree, nothingToRestore());
		const runs = all.slice(first);
		if (runs[0]!.mode === "files") {
			return filesRestore(setup.workTree, planFilesRestore(setup.dir, setup.workTree, runs, this.limits.maxFileBytes));
		}
		if (!setup.repo) return `The files cannot be restored: ${setup.reason}.`;
		if (!runs[0]!.before) return "The files cannot be restored: this prompt's checkpoint was not completed.";
		const repo = setup.repo;
		const now = await this.enqueue(() => this.snapshotBeforeRestore(setup, repo));
		if (typeof now === "string") return `The files cannot be restored: ${now}.`;
		return filesRestore(setup.workTree, await planTreeRestore(repo, runs, now));
	}

	/** Removes this process's index once recording is done (the checkpoints stay). */
	async dispose(): Promise<void> {
		await this.settled();
		(await this.setupPromise)?.repo?.dropIndex(this.indexName);
		this.forgetExitHook();
	}

	/** At exit: the index goes even if a recording is still under way (the next process starts from the template). */
	dropIndexNow(): void {
		this.resolvedRepo?.dropIndex(this.indexName);
	}

	private async recordBefore(run: ActiveRun): Promise<void> {
		const setup = await this.setup();
		if (setup.repo) {
			const result = await this.snapshot(setup, setup.repo, { outside: true });
			if (typeof result !== "string") {
				const prefix = `${run.sessionId}/${run.record.run}`;
				const outside = result.outside && (await setup.repo.writeList(result.outside));
				run.record.before = result.tree;
				run.record.skipped = result.skipped;
				run.record.outside = outside;
				await setup.repo.keep({ [`${prefix}/before`]: result.tree, ...(outside ? { [`${prefix}/outside`]: outside } : {}) });
				this.write(run, { at: run.record.at, prompt: run.record.prompt, mode: "tree", before: result.tree, skipped: result.skipped, outside });
				return;
			}
			this.fallBack(setup, result);
		}
		run.record.mode = "files";
		this.write(run, { at: run.record.at, prompt: run.record.prompt, mode: "files" });
	}

	/** A run no call that may change files ran in: one line, so a rewind to its prompt knows where to start. */
	private async recordUnchanged(run: ActiveRun): Promise<void> {
		if (run.record.prompt === undefined) return;
		const setup = await this.setup();
		run.log = this.logFor(setup, run.identity);
		this.write(run, { at: run.record.at, prompt: run.record.prompt, mode: setup.repo ? "tree" : "files", unchanged: true });
	}

	private async recordAfter(run: ActiveRun): Promise<void> {
		const setup = await this.setup();
		if (run.record.mode === "tree" && setup.repo) {
			const result = await this.snapshot(setup, setup.repo);
			if (typeof result === "string") return this.fallBack(setup, result);
			// The run's own "before" ref keeps the same tree (they are forgotten together).
			if (result.tree !== run.record.before) await setup.repo.keep({ [`${run.sessionId}/${run.record.run}/after`]: result.tree });
			this.write(run, { after: result.tree, afterSkipped: result.skipped });
			return;
		}
		if (run.captured.size === 0) return;
		const afterHashes: Record<string, string | null> = {};
		for (const path of run.captured) afterHashes[path] = contentHash(setup.workTree, path, this.limits.maxFileBytes);
		this.write(run, { afterHashes });
	}

	/** The work tree just before a restore, kept (as a record of its own) so that state is never lost. */
	private async snapshotBeforeRestore(setup: Setup, repo: ShadowRepo): Promise<Snapshot | string> {
		const result = await this.snapshot(setup, repo);
		if (typeof result === "string") return result;
		const identity = this.options.session();
		const run = randomBytes(6).toString("hex");
		await repo.keep({ [`${identity.id}/${run}/before`]: result.tree });
		this.logFor(setup, identity).append({ run, at: new Date().toISOString(), mode: "tree", before: result.tree, rewind: true });
		return result;
	}

	/** A snapshot, or why it could not be taken. */
	private async snapshot(setup: Setup, repo: ShadowRepo, options: { outside?: boolean } = {}): Promise<Snapshot | string> {
		try {
			const result = await repo.snapshot(this.indexName, this.limits, options);
			if (result.kind === "too-many") return `${setup.workTree} has more than ${result.limit.toLocaleString("en-US")} files to record`;
			this.reportSkipped(setup.dir, result.skipped);
			return result;
		} catch (error) {
			return `recording the work tree failed (${(error as Error).message.split("\n")[0]})`;
		}
	}

	/** From now on this session keeps write/edit pre-images instead of snapshots. */
	private fallBack(setup: Setup, reason: string): void {
		this.setupPromise = Promise.resolve({ dir: setup.dir, workTree: setup.workTree, reason });
		this.warnOnce(setup.dir, reason);
	}

	/** Once per project (remembered in its checkpoint folder), not in every session or print run. */
	private warnOnce(projectDir: string, reason: string): void {
		if (this.warned) return;
		this.warned = true;
		if (!firstTimeSaid(projectDir, reason)) return;
		this.options.notify(
			"warning",
			`Checkpoints: ${reason}, so the working tree is not snapshotted; /rewind can restore only files changed by write and edit, not what bash changed.`,
		);
	}

	/** Names the files left out that this project's checkpoints have not named before. */
	private reportSkipped(projectDir: string, skipped: readonly SkippedFile[]): void {
		const fresh = unreportedSkips(projectDir, skipped);
		if (fresh.length === 0) return;
		const list = fresh.slice(0, 5).map((file) => `${file.path} (${formatSize(file.size)}${file.reason === "binary" ? ", binary" : ""})`);
		const more = fresh.length > 5 ? ` and ${fresh.length - 5} more` : "";
		this.options.notify("info", `Checkpoints leave out files over the size limit, which /rewind cannot restore: ${list.join(", ")}${more}.`);
	}

	private setup(): Promise<Setup> {
		this.setupPromise ??= this.decide().then((setup) => {
			if (setup.reason) this.warnOnce(setup.dir, setup.reason);
			this.resolvedRepo = setup.repo;
			return setup;
		});
		return this.setupPromise;
	}

	private async decide(): Promise<Setup> {
		const root = await findProjectRoot(this.options.cwd);
		const dir = join(checkpointsRoot(this.options.home), projectKey(root.workTree));
		const files = (reason: string): Setup => ({ dir, workTree: root.workTree, reason });
		// Inside a repository git has just answered findProjectRoot: no need to ask whether it runs.
		if (!root.userGitDir && !(await gitAvailable())) return files("git is not installed");
		const why = notAProject(root.workTree);
		if (why) return files(why);
		try {
			const repo = await ShadowRepo.open(this.options.home, root);
			pruneDaily(this.options.home, dir);
			return { dir, workTree: root.workTree, repo };
		} catch (error) {
			return files(`the checkpoint repository could not be created (${(error as Error).message.split("\n")[0]})`);
		}
	}

	/** One writer per log, so it names this process in a log another started only once. */
	private logFor(setup: Setup, identity: SessionIdentity): LogWriter {
		const file = logPath(setup.dir, identity.id);
		let log = this.logs.get(file);
		if (!log) {
			log = new LogWriter(file, { session: identity.id, file: identity.file ?? null, parentFile: identity.parentFile });
			this.logs.set(file, log);
		}
		return log;
	}

	private write(run: ActiveRun, update: Omit<LogUpdate, "run">): void {
		if (!run.log) return;
		try {
			run.log.append({ run: run.record.run, ...update });
		} catch (error) {
			this.options.notify("warning", `Checkpoints: could not write ${run.log.file}: ${(error as Error).message}`);
		}
	}

	/** The runs of this session and of the sessions it was forked from, in the order they started (restores left out). */
	private async runs(): Promise<RunRecord[]> {
		const setup = await this.setup();
		return lineageRuns(setup.dir, this.options.session()).filter((run) => run.rewind !== true);
	}

	private enqueue<T>(task: () => Promise<T>): Promise<T> {
		const result = this.queue.then(task);
		this.queue = result.catch(() => undefined);
		return result;
	}
}

/** Once a day per project, in the background: the checkpoints of its sessions whose file was deleted go. */
function pruneDaily(home: string, dir: string): void {
	const stamp = join(dir, "last-prune");
	try {
		if (Date.now() - statSync(stamp).mtimeMs < DAY_MS) return;
	} catch {
		// Never pruned.
	}
	try {
		writeFileSync(stamp, `${new Date().toISOString()}\n`);
	} catch {
		return;
	}
	void pruneCheckpoints({ home, projectDir: dir }).catch(() => {});
}

const DAY_MS = 24 * 60 * 60 * 1000;
