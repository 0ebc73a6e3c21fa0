// The language servers of a session: one per language per workspace root, started on the first read, edit or
// query of a file one covers. A file's diagnostics are taken before a change (the baseline) and after it; the
// errors that are new are what an edit's result gets. A server that cannot start, leaves, or does not answer in
// time is reported once; nothing waits on a server beyond its spec's bound. Cheap to make: nothing is looked up
// or loaded before the first file a server may cover.
import { readFile } from "node:fs/promises";
import { relative, resolve } from "node:path";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { type ConfineSpawn, errorMessage } from "../../core/index.js";
import { capped, diagnosticLine, newDiagnostics, reportable } from "./diagnostic-lines.js";
import type { ServerClient } from "./server-client.js";
import { type LspSettings, type ServerSpec, serverSpecs, specFor, workspaceRoot } from "./server-specs.js";

/** What an edit's result gets: the new errors' lines (at most the spec's maxLines) and how many there are. */
export interface NewDiagnostics {
	count: number;
	lines: string[];
	/** "errors", or "errors and warnings" when the spec reports warnings too. */
	kind: string;
}

export interface LanguageServersOptions {
	cwd: string;
	settings?: LspSettings;
	env?: NodeJS.ProcessEnv;
	/** The sandbox's launcher: servers run confined where it is on. */
	confine?: ConfineSpawn;
}

/** How often a server that left is started again before its language is given up for the session. */
const MAX_RESTARTS = 3;

interface Running {
	client: Promise<ServerClient>;
	/** The client once started. */
	ready?: ServerClient;
	/** An edit stopped waiting for it to start. */
	gaveUp?: boolean;
	restarts: number;
}

export class LanguageServers {
	private specs: ServerSpec[] | undefined;
	private readonly running = new Map<string, Running>();
	/** Servers given up on (they failed to start, or left too often), by key. */
	private readonly failed = new Set<string>();
	/** A file's baseline taken before a change: its reportable diagnostics then, or undefined if none came. */
	private readonly baselines = new Map<string, Promise<Diagnostic[] | undefined>>();
	private readonly reported = new Set<string>();
	private disposed = false;
	/** Where reports go (the session's notices); set by installLsp. */
	notify: (level: "warning" | "error", text: string) => void = () => {};

	constructor(private readonly options: LanguageServersOptions) {}

	get cwd(): string {
		return this.options.cwd;
	}

	/** Whether a server covers `path` (relative to cwd or absolute). */
	covers(path: string): boolean {
		return specFor(this.allSpecs(), this.absolute(path)) !== undefined;
	}

	/** Starts the server for a file that is read (so it is warm for the edit), and opens the file in it. */
	touch(path: string): void {
		const file = this.absolute(path);
		const spec = specFor(this.allSpecs(), file);
		if (!spec || this.baselines.has(file)) return;
		// A file the server has open is kept in step by the edits (and by queries, which compare its text).
		if (this.running.get(this.key(spec, file))?.ready?.textOf(file) !== undefined) return;
		void this.takeBaseline(spec, file);
	}

	/** Before a change of `path`: its diagnostics as of its text now, for afterChange to compare with. */
	async beforeChange(path: string): Promise<void> {
		const file = this.absolute(path);
		const spec = specFor(this.allSpecs(), file);
		if (!spec) return;
		const text = await readFile(file, "utf8").catch(() => undefined);
		const ready = this.running.get(this.key(spec, file))?.ready;
		// The server has this very text already: its diagnostics for it are the baseline.
		if (ready && !ready.exited && ready.textOf(file) === (text ?? "")) {
			this.baselines.set(file, ready.currentDiagnostics(file).then((diagnostics) => diagnostics && reportable(diagnostics, spec.warnings)));
			return;
		}
		void this.takeBaseline(spec, file, text ?? "");
	}

	/** After a change of `path`: the errors its server reports now that the baseline did not; undefined for none (or no answer). */
	async afterChange(path: string, signal?: AbortSignal): Promise<NewDiagnostics | undefined> {
		const file = this.absolute(path);
		const spec = specFor(this.allSpecs(), file);
		if (!spec || signal?.aborted) return undefined;
		const deadline = Date.now() + spec.waitMs;
		const baseline = this.baselines.get(file);
		this.baselines.delete(file);
		const key = this.key(spec, file);
		// A server still starting after an edit gave up waiting for it is not waited for again until it is up.
		if (this.running.get(key)?.gaveUp && !this.running.get(key)?.ready) return undefined;
		const client = await this.client(spec, file, deadline);
		if (!client) {
			const running = this.running.get(key);
			if (running && !running.ready && !this.failed.has(key)) {
				running.gaveUp = true;
				this.reportOnce(`${key}:starting`, `The ${spec.language} language server has not started within ${spec.waitMs} ms; edits go without its diagnostics until it has.`);
			}
			return undefined;
		}
		const before = baseline ? await beforeDeadline(baseline, deadline) : [];
		const text = await readFile(file, "utf8").catch(() => undefined);
		if (text === undefined) return undefined;
		let after: Diagnostic[] | undefined;
		try {
			after = await client.sync(file, text, Math.max(0, deadline - Date.now()));
		} catch (error) {
			this.reportOnce(`${spec.language}:sync`, `The ${spec.language} language server did not take ${this.shown(file)}: ${errorMessage(error)}.`);
			return undefined;
		}
		if (after === undefined) {
			if (!client.exited) this.reportOnce(`${spec.language}:slow`, `The ${spec.language} language server gave no diagnostics for ${this.shown(file)} within ${spec.waitMs} ms; edits go without them until it answers (settings' lsp.${spec.language}.waitMs raises the bound).`);
			return undefined;
		}
		const fresh = newDiagnostics(before ?? [], reportable(after, spec.warnings));
		if (fresh.length === 0) return undefined;
		const lines = fresh.map((diagnostic) => diagnosticLine(this.shown(file), diagnostic));
		return { count: fresh.length, lines: capped(lines, spec.maxLines), kind: spec.warnings ? "errors and warnings" : "errors" };
	}

	/** The running (or starting) server for a file, starting it if need be; undefined when there is none, or at the deadline. */
	async client(spec: ServerSpec, file: string, deadline = Number.POSITIVE_INFINITY): Promise<ServerClient | undefined> {
		const key = this.key(spec, file);
		if (this.failed.has(key) || this.disposed) return undefined;
		let running = this.running.get(key);
		if (running) {
			const current = await running.client.catch(() => undefined);
			if (current?.exited && running.restarts < MAX_RESTARTS) {
				running = this.launch(spec, file, key, running.restarts + 1);
			}
		} else {
			running = this.launch(spec, file, key, 0);
		}
		const client = await beforeDeadline(running.client.catch(() => undefined), deadline);
		return client && !client.exited ? client : undefined;
	}

	/** The spec of the server covering `path`, or why there is none. */
	specOf(path: string): ServerSpec {
		const spec = specFor(this.allSpecs(), this.absolute(path));
		if (!spec) throw new Error(`No language server covers ${path}: settings' lsp names the servers and the file endings each covers.`);
		return spec;
	}

	absolute(path: string): string {
		return resolve(this.options.cwd, path);
	}

	/** A path as results show it: relative to cwd when inside it. */
	shown(file: string): string {
		const inside = relative(this.options.cwd, file);
		return inside.startsWith("..") || inside === "" ? file : inside;
	}

	/** Ends every server (politely, then by force after a grace period). */
	dispose(): void {
		this.disposed = true;
		for (const running of this.running.values()) void running.client.then((client) => client.close(), () => undefined);
		this.running.clear();
	}

	private launch(spec: ServerSpec, file: string, key: string, restarts: number): Running {
		const running: Running = { client: this.start(spec, file, key), restarts };
		running.client.then((client) => (running.ready = client), () => undefined);
		this.running.set(key, running);
		return running;
	}

	private takeBaseline(spec: ServerSpec, file: string, known?: string): Promise<void> {
		const baseline = (async () => {
			const client = await this.client(spec, file);
			if (!client) return undefined;
			const text = known ?? (await readFile(file, "utf8").catch(() => ""));
			const diagnostics = await client.sync(file, text, spec.waitMs * 3);
			return diagnostics && reportable(diagnostics, spec.warnings);
		})().catch(() => undefined);
		this.baselines.set(file, baseline);
		return baseline.then(() => {});
	}

	private async start(spec: ServerSpec, file: string, key: string): Promise<ServerClient> {
		const { ServerClient } = await import("./server-client.js");
		const root = workspaceRoot(spec, file, this.options.cwd);
		const client = new ServerClient(spec, root, (description, stderr) => {
			const why = stderr.trim() ? ` (${stderr.trim().split("\n").slice(-2).join(" ")})` : "";
			const running = this.running.get(key);
			const again = running && running.restarts < MAX_RESTARTS ? "; it starts again on the next edit of a file it covers" : "; its language goes without one for the rest of the session";
			this.notify("warning", `The ${spec.language} language server ${description}${why}${again}.`);
		}, this.options.confine);
		try {
			await client.start();
		} catch (error) {
			client.kill();
			this.failed.add(key);
			this.reportOnce(`${key}:start`, `The ${spec.language} language server (${spec.command}) did not start: ${errorMessage(error)}. Edits of its files go without diagnostics.`);
			throw error;
		}
		if (this.disposed) client.close();
		return client;
	}

	private allSpecs(): ServerSpec[] {
		if (!this.specs) {
			const { specs, problems } = serverSpecs(this.options.settings, this.options.cwd, this.options.env);
			this.specs = specs;
			for (const problem of problems) this.reportOnce(problem, problem);
		}
		return this.specs;
	}

	private key(spec: ServerSpec, file: string): string {
		return `${spec.language}\0${workspaceRoot(spec, file, this.options.cwd)}`;
	}

	private reportOnce(key: string, text: string): void {
		if (this.reported.has(key)) return;
		this.reported.add(key);
		this.notify("warning", text);
	}
}

/** `promise`'s value, or undefined once `deadline` (a time) has passed. */
function beforeDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | undefined> {
	if (deadline === Number.POSITIVE_INFINITY) return promise;
	return new Promise((resolveWait) => {
		const timer = setTimeout(() => resolveWait(undefined), Math.max(0, deadline - Date.now()));
		promise.then(
			(value) => {
				clearTimeout(timer);
				resolveWait(value);
			},
			() => {
				clearTimeout(timer);
				resolveWait(undefined);
			},
		);
	});
}
