// One running language server: spawned in a process group of its own (ended with it, and when loom exits), spoken
// to over stdio with vscode-jsonrpc. It keeps what it last published for each file, and can wait for the
// diagnostics of a file's latest text. Loaded only when a server starts (the JSON-RPC library with it).
import { type ChildProcess, spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type ProtocolConnection } from "vscode-languageserver-protocol/node.js";
import type { Diagnostic, InitializeParams, PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import { type ConfineSpawn, ProcessGroupSet, type SpawnSpec } from "../../core/index.js";
import { languageId, type ServerSpec, uriOf } from "./server-specs.js";

/** The groups of the servers running: whatever way loom leaves, they are killed as it exits. */
const serverGroups = new ProcessGroupSet();

/** How much of a server's stderr is kept, for the message when it fails. */
const STDERR_TAIL_BYTES = 2048;
/** How long a server may take to answer `initialize` before it is given up (and killed). */
const START_LIMIT_MS = 120_000;
/** How long a server may take to answer `shutdown` and leave before its group is killed. */
const SHUTDOWN_GRACE_MS = 1000;
/**
 * After a publication, how long the server may stay quiet (at least) before its diagnostics count as complete:
 * servers publish a file's diagnostics in parts (typescript-language-server: syntax, then semantic, then
 * suggestions), most without a version to say which text they are for.
 */
const SETTLE_MS = 300;

interface OpenFile {
	version: number;
	text: string;
}

interface Published {
	/** Publications for this file so far. */
	count: number;
	diagnostics: Diagnostic[];
}

export class ServerClient {
	private connection: ProtocolConnection | undefined;
	private child: ChildProcess | undefined;
	private stderr = "";
	private readonly open = new Map<string, OpenFile>();
	private readonly published = new Map<string, Published>();
	private readonly waiters = new Set<() => void>();
	/** Each file's latest sync still waiting for its diagnostics. */
	private readonly syncing = new Map<string, Promise<Diagnostic[] | undefined>>();
	private exitText: string | undefined;
	/**
	 * How a file's diagnostics are asked for rather than waited for: LSP's pull request where the server offers it,
	 * tsserver's own requests through typescript-language-server; undefined once asking failed (publications then).
	 */
	private pull: "lsp" | "tsserver" | undefined;
	private closing = false;
	private started = false;

	/** `onExit`: the server left without being asked ("exited with code 1", "was killed by SIGKILL"). */
	constructor(
		readonly spec: ServerSpec,
		readonly root: string,
		private readonly onExit: (description: string, stderr: string) => void,
		/** The sandbox's launcher: the server runs confined where it is on. */
		private readonly confine?: ConfineSpawn,
	) {}

	get pid(): number | undefined {
		return this.child?.pid;
	}

	get exited(): boolean {
		return this.exitText !== undefined;
	}

	/** Spawns and initializes the server; rejects when it cannot start or leaves first. */
	async start(): Promise<void> {
		const plain: SpawnSpec = { command: this.spec.command, args: this.spec.args, cwd: this.root };
		const launched = this.confine ? this.confine(plain) : plain;
		const child = spawn(launched.command, [...launched.args], { cwd: launched.cwd, env: launched.env, stdio: ["pipe", "pipe", "pipe"], detached: true });
		this.child = child;
		const failed = new Promise<never>((_, reject) => {
			child.once("error", (error) => reject(new Error(`it could not start: ${error.message}`)));
			child.once("exit", (code, signal) => {
				if (child.pid !== undefined) serverGroups.kill(child.pid);
				this.exitText = signal ? `was killed by ${signal}` : `exited with code ${code}`;
				// First: a start in progress fails for this, not for the connection's end.
				reject(new Error(`it ${this.exitText}${this.stderr ? `: ${this.stderr.trim().split("\n").slice(-3).join(" ")}` : ""}`));
				for (const wake of this.waiters) wake();
				this.connection?.dispose();
				// Leaving before it was up is start()'s failure to report.
				if (!this.closing && this.started) this.onExit(this.exitText, this.stderr);
			});
		});
		failed.catch(() => undefined);
		if (child.pid !== undefined) serverGroups.track(child.pid);
		child.stderr!.on("data", (chunk: Buffer) => {
			this.stderr = (this.stderr + chunk.toString("utf8")).slice(-STDERR_TAIL_BYTES);
		});
		// A pipe closed under a write is the exit's to report.
		child.stdin!.on("error", () => undefined);
		const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
		this.connection = connection;
		connection.onNotification("textDocument/publishDiagnostics", (params: PublishDiagnosticsParams) => {
			const before = this.published.get(params.uri);
			this.published.set(params.uri, { count: (before?.count ?? 0) + 1, diagnostics: params.diagnostics });
			for (const wake of this.waiters) wake();
		});
		// What servers ask of a client: no settings of its own, no capabilities registered dynamically, progress ignored.
		connection.onRequest("workspace/configuration", (params: { items?: unknown[] }) => (params.items ?? []).map(() => null));
		connection.onRequest("client/registerCapability", () => null);
		connection.onRequest("window/workDoneProgress/create", () => null);
		connection.onRequest("workspace/workspaceFolders", () => [{ uri: pathToFileURL(this.root).href, name: this.root }]);
		connection.onError(() => undefined);
		connection.listen();
		const params: InitializeParams = {
			processId: process.pid,
			rootUri: pathToFileURL(this.root).href,
			workspaceFolders: [{ uri: pathToFileURL(this.root).href, name: this.root }],
			initializationOptions: this.spec.initializationOptions(this.root),
			capabilities: {
				textDocument: {
					synchronization: { didSave: false, dynamicRegistration: false },
					publishDiagnostics: { versionSupport: true, relatedInformation: false },
					diagnostic: { dynamicRegistration: false },
					definition: { linkSupport: false },
					references: {},
					hover: { contentFormat: ["plaintext", "markdown"] },
					documentSymbol: { hierarchicalDocumentSymbolSupport: true },
				},
				workspace: { symbol: {}, workspaceFolders: true, configuration: true },
			},
		};
		const tooLong = new Promise<never>((_, reject) => {
			const timer = setTimeout(() => reject(new Error(`it did not answer "initialize" within ${START_LIMIT_MS / 1000} s`)), START_LIMIT_MS);
			timer.unref();
			void failed.catch(() => undefined).finally(() => clearTimeout(timer));
		});
		const initialized = (await Promise.race([connection.sendRequest("initialize", params), failed, tooLong])) as { capabilities?: { diagnosticProvider?: unknown } } | null;
		if (initialized?.capabilities?.diagnosticProvider) this.pull = "lsp";
		else if (this.spec.language === "typescript") this.pull = "tsserver";
		await connection.sendNotification("initialized", {});
		this.started = true;
	}

	/**
	 * Gives the server `text` as the file's content (opening it; changing it where diagnostics are asked for, else
	 * reopening it so the server publishes afresh even when nothing changed) and resolves with its diagnostics for that text once they have settled; undefined when
	 * none came within `limitMs` (or the server left).
	 */
	async sync(path: string, text: string, limitMs: number): Promise<Diagnostic[] | undefined> {
		const connection = this.live();
		const uri = uriOf(path);
		const deadline = Date.now() + limitMs;
		const open = this.open.get(uri);
		if (open && this.pull) {
			// Asked for, the diagnostics are those of the text sent: a change is enough.
			const version = open.version + 1;
			this.open.set(uri, { version, text });
			await connection.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [{ text }] });
			return this.track(uri, this.pulled(path, this.published.get(uri)?.count ?? 0, deadline));
		}
		if (open) {
			await connection.sendNotification("textDocument/didClose", { textDocument: { uri } });
			// What the server publishes for the close (an empty list) comes before its answer to a later request.
			await withinMs(connection.sendRequest("loom/sync").catch(() => undefined), deadline - Date.now());
		}
		const version = (open?.version ?? 0) + 1;
		const since = this.published.get(uri)?.count ?? 0;
		this.open.set(uri, { version, text });
		await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: languageId(path, this.spec.language), version, text } });
		return this.track(uri, this.pull ? this.pulled(path, since, deadline) : this.settled(uri, since, deadline));
	}

	/** Keeps `settled` as the file's sync in progress until it resolves. */
	private track(uri: string, settled: Promise<Diagnostic[] | undefined>): Promise<Diagnostic[] | undefined> {
		this.syncing.set(uri, settled);
		void settled.then(() => this.syncing.get(uri) === settled && this.syncing.delete(uri));
		return settled;
	}

	/** The file's diagnostics for the text it has: those of a sync still settling once it has, else the latest. */
	async currentDiagnostics(path: string): Promise<Diagnostic[] | undefined> {
		const pending = this.syncing.get(uriOf(path));
		return pending ? ((await pending) ?? this.diagnosticsOf(path)) : this.diagnosticsOf(path);
	}

	/** The file's text as the server has it, undefined when it does not have the file open. */
	textOf(path: string): string | undefined {
		return this.open.get(uriOf(path))?.text;
	}

	/** What the server last published for the file. */
	diagnosticsOf(path: string): Diagnostic[] | undefined {
		return this.published.get(uriOf(path))?.diagnostics;
	}

	request<R>(method: string, params: unknown, limitMs: number): Promise<R | undefined> {
		return withinMs(this.live().sendRequest(method, params) as Promise<R>, limitMs);
	}

	/** Asks the server to shut down and leave; its group is killed after a grace period in any case. */
	close(): void {
		this.closing = true;
		const pid = this.child?.pid;
		if (pid === undefined || this.exited) return;
		const connection = this.connection;
		if (connection) {
			void withinMs(connection.sendRequest("shutdown"), SHUTDOWN_GRACE_MS / 2)
				.then(() => connection.sendNotification("exit"))
				.catch(() => undefined);
		}
		const timer = setTimeout(() => serverGroups.kill(pid), SHUTDOWN_GRACE_MS);
		timer.unref();
		this.child!.once("exit", () => clearTimeout(timer));
	}

	/** Kills the server's group at once (loom is leaving, or the server hangs). */
	kill(): void {
		this.closing = true;
		if (this.child?.pid !== undefined) serverGroups.kill(this.child.pid);
	}

	private live(): ProtocolConnection {
		if (!this.connection || this.exitText) throw new Error(`the ${this.spec.language} language server ${this.exitText ?? "is not running"}`);
		return this.connection;
	}

	/** The file's diagnostics asked of the server; what it publishes when asking fails (and from then on). */
	private async pulled(path: string, since: number, deadline: number): Promise<Diagnostic[] | undefined> {
		const uri = uriOf(path);
		try {
			const remaining = () => Math.max(0, deadline - Date.now());
			let diagnostics: Diagnostic[] | undefined;
			if (this.pull === "lsp") {
				const report = await this.request<{ kind?: string; items?: Diagnostic[] }>("textDocument/diagnostic", { textDocument: { uri } }, remaining());
				diagnostics = report?.kind === "full" ? report.items : report ? this.diagnosticsOf(path) : undefined;
			} else {
				const ask = (command: string) =>
					this.request<{ body?: TsserverDiagnostic[] }>("workspace/executeCommand", { command: "typescript.tsserverRequest", arguments: [command, { file: path }] }, remaining());
				const [syntactic, semantic] = await Promise.all([ask("syntacticDiagnosticsSync"), ask("semanticDiagnosticsSync")]);
				if (syntactic === undefined || semantic === undefined) return undefined;
				if (!Array.isArray(syntactic?.body) || !Array.isArray(semantic?.body)) throw new Error("no diagnostics in the answer");
				diagnostics = [...syntactic.body, ...semantic.body].map(fromTsserver);
			}
			if (diagnostics) this.published.set(uri, { count: (this.published.get(uri)?.count ?? 0) + 1, diagnostics });
			return diagnostics;
		} catch {
			if (this.exitText) return undefined;
			this.pull = undefined;
			return this.settled(uri, since, deadline);
		}
	}

	/**
	 * Waits for a publication after `since`, then for a quiet spell without another (SETTLE_MS, or half as long as
	 * the first publication took when longer); the latest at the deadline else.
	 */
	private settled(uri: string, since: number, deadline: number): Promise<Diagnostic[] | undefined> {
		return new Promise((resolveWait) => {
			let quiet: NodeJS.Timeout | undefined;
			const started = Date.now();
			let first: number | undefined;
			const finish = () => {
				clearTimeout(quiet);
				clearTimeout(limit);
				this.waiters.delete(check);
				const published = this.published.get(uri);
				resolveWait(published && published.count > since ? published.diagnostics : undefined);
			};
			const check = () => {
				if (this.exitText) return finish();
				const published = this.published.get(uri);
				if (!published || published.count <= since) return;
				clearTimeout(quiet);
				// A server slow to its first part (a busy machine, a big file) is as slow to the next ones.
				first ??= Date.now() - started;
				quiet = setTimeout(finish, Math.min(Math.max(SETTLE_MS, first / 2), Math.max(0, deadline - Date.now())));
			};
			const limit = setTimeout(finish, Math.max(0, deadline - Date.now()));
			this.waiters.add(check);
			check();
		});
	}
}

function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
	return new Promise((resolveWait, rejectWait) => {
		const timer = setTimeout(() => resolveWait(undefined), Math.max(0, ms));
		promise.then(
			(value) => {
				clearTimeout(timer);
				resolveWait(value);
			},
			(error: unknown) => {
				clearTimeout(timer);
				rejectWait(error);
			},
		);
	});
}

/** A diagnostic as tsserver gives it (positions 1-based). */
interface TsserverDiagnostic {
	start: { line: number; offset: number };
	end: { line: number; offset: number };
	text: string;
	code?: number;
	category?: string;
}

const TSSERVER_SEVERITY: Record<string, 1 | 2 | 3 | 4> = { error: 1, warning: 2, message: 3, suggestion: 4 };

function fromTsserver(diagnostic: TsserverDiagnostic): Diagnostic {
	return {
		range: {
			start: { line: diagnostic.start.line - 1, character: diagnostic.start.offset - 1 },
			end: { line: diagnostic.end.line - 1, character: diagnostic.end.offset - 1 },
		},
		message: diagnostic.text,
		severity: TSSERVER_SEVERITY[diagnostic.category ?? "error"] ?? 1,
		...(diagnostic.code !== undefined ? { code: diagnostic.code } : {}),
		source: "typescript",
	};
}
