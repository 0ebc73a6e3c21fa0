// One configured MCP server over the session's life: starting it, its tools, its calls, and what happens when
// it fails. A server that fails to start or dies is reported once; its tools then answer with an error that
// says so, and the next call starts it again, at most MAX_RESTARTS times.
import { formatMs, RequestFailure } from "./call-errors.js";
import type { CallOptions, ListedTool, OpenClient } from "./open-client.js";
import type { McpServerEntry, McpServerSpec } from "./mcp-config.js";
import type { McpCallResult } from "./tool-result.js";
import { errorMessage } from "../../core/index.js";

export const MAX_RESTARTS = 3;

export type ServerState =
	/** Being connected to (or restarted). */
	| "starting"
	| "ready"
	/** Could not start, or died; `problem` says why. */
	| "failed"
	/** Closed by loom. */
	| "closed"
	/** Not started: `disabled` in its configuration. */
	| "disabled"
	/** Not started: it comes from a project that is not trusted. */
	| "untrusted"
	/** Not started: its configuration names a variable that is not set. */
	| "unusable";

export interface ConnectionEvents {
	/** The server's tool list is new (it started, restarted, or said its tools changed). */
	toolsChanged(connection: ServerConnection): void;
	/** Something the user should hear about, once per event (a failed start, a death). */
	report(level: "warning" | "error", text: string): void;
}

/** Loads the SDK side of a connection; a dynamic import, so loom without servers never loads the SDK. */
export type ClientOpener = (spec: McpServerSpec, events: { onClosed(): void; onToolsChanged(): void }) => Promise<OpenClient>;

export class ServerConnection {
	state: ServerState;
	/** Why the server is failed or unusable. */
	problem: string | undefined;
	tools: readonly ListedTool[] = [];
	/** Restarts after a failure so far. */
	restarts = 0;
	private client: OpenClient | undefined;
	private starting: Promise<void> | undefined;
	/** Counts starts, so events of an old connection are not taken for the current one's. */
	private generation = 0;

	constructor(
		readonly entry: McpServerEntry,
		private readonly open: ClientOpener,
		private readonly events: ConnectionEvents,
		trusted: boolean,
	) {
		this.state = entry.disabled ? "disabled" : !trusted ? "untrusted" : entry.problem ? "unusable" : "closed";
		this.problem = entry.problem;
	}

	get name(): string {
		return this.entry.name;
	}

	/** Whether start() would start it (it is configured usably and not disabled or untrusted). */
	get startable(): boolean {
		return this.entry.spec !== undefined && this.state !== "disabled" && this.state !== "untrusted";
	}

	/** The project was trusted after the session opened: its servers may start now. */
	trust(): void {
		if (this.state === "untrusted") this.state = this.entry.problem ? "unusable" : "closed";
	}

	/**
	 * Connects and lists the tools; never rejects (a failure is the state `failed`, reported once). Calls made
	 * while it starts share the one attempt.
	 */
	start(): Promise<void> {
		if (!this.startable || this.state === "unusable") return Promise.resolve();
		this.starting ??= this.connect().finally(() => {
			this.starting = undefined;
		});
		return this.starting;
	}

	/** Settles when no start is in progress. */
	settled(): Promise<void> {
		return this.starting ?? Promise.resolve();
	}

	/** Calls a tool; a dead server is started again first (up to MAX_RESTARTS). Throws an error fit for the model. */
	async call(tool: string, args: Record<string, unknown>, options: CallOptions): Promise<McpCallResult> {
		await this.ensureRunning();
		try {
			return await this.client!.callTool(tool, args, options);
		} catch (error) {
			if (options.signal?.aborted) throw new Error(`The call was cancelled; MCP server ${this.name} was told so.`);
			const kind = error instanceof RequestFailure ? error.kind : "transport";
			switch (kind) {
				case "timeout":
					throw new Error(
						`MCP server ${this.name} sent no answer or progress for ${formatMs(options.timeoutMs)}, so the call was cancelled (its timeout is set in the server's configuration).`,
					);
				case "closed":
					throw new Error(`MCP server ${this.name} stopped during the call${this.problem ? ` (${this.problem})` : ""}. It is started again on the next call.`);
				case "server":
					throw new Error(`MCP server ${this.name} refused the call: ${errorMessage(error)}`);
				default:
					// The connection itself failed (a remote server gone): the next call connects again.
					this.fail(`the connection failed: ${errorMessage(error)}`, "died");
					throw new Error(`MCP server ${this.name} could not be reached: ${errorMessage(error)}. It is connected again on the next call.`);
			}
		}
	}

	async close(): Promise<void> {
		this.generation++;
		const client = this.client;
		this.client = undefined;
		if (this.state === "ready" || this.state === "starting") this.state = "closed";
		await client?.close();
	}

	/** Forgets earlier failures and starts the server again (`/mcp restart`). */
	async restart(): Promise<void> {
		await this.close();
		this.restarts = 0;
		if (this.state === "failed") this.state = "closed";
		await this.start();
	}

	private async ensureRunning(): Promise<void> {
		if (this.state === "starting") await this.settled();
		if (this.state === "ready" && this.client) return;
		if (this.state !== "failed" && this.state !== "closed") throw new Error(this.unavailable());
		if (this.restarts >= MAX_RESTARTS) {
			throw new Error(
				`MCP server ${this.name} is not running (${this.problem ?? "closed"}). It was restarted ${MAX_RESTARTS} times already, so loom does not start it again; /mcp restart ${this.name} tries once more.`,
			);
		}
		this.restarts++;
		await this.start();
		// start() changed the state meanwhile.
		if ((this.state as ServerState) !== "ready") throw new Error(`MCP server ${this.name} is not running, and starting it again failed: ${this.problem}`);
	}

	private unavailable(): string {
		switch (this.state) {
			case "disabled":
				return `MCP server ${this.name} is disabled in ${this.entry.source}.`;
			case "untrusted":
				return `MCP server ${this.name} comes from a project that is not trusted, so it was not started.`;
			default:
				return `MCP server ${this.name} cannot start: ${this.problem}`;
		}
	}

	private async connect(): Promise<void> {
		const generation = ++this.generation;
		const spec = this.entry.spec!;
		const restarting = this.state === "failed";
		this.state = "starting";
		let client: OpenClient | undefined;
		try {
			client = await this.open(spec, {
				onClosed: () => {
					if (generation === this.generation) this.fail(this.client?.exitReport() ?? "the connection closed", "died");
				},
				onToolsChanged: () => {
					if (generation === this.generation) void this.refreshTools(generation);
				},
			});
			if (generation !== this.generation) {
				await client.close();
				return;
			}
			this.client = client;
			this.tools = await client.listTools(spec.startupTimeoutMs);
		} catch (error) {
			if (generation !== this.generation) return;
			await client?.close();
			this.client = undefined;
			this.fail(errorMessage(error), restarting ? "restart" : "start");
			return;
		}
		if (generation !== this.generation) return;
		this.state = "ready";
		this.problem = undefined;
		this.events.toolsChanged(this);
	}

	private async refreshTools(generation: number): Promise<void> {
		try {
			const tools = await this.client!.listTools(this.entry.spec!.startupTimeoutMs);
			if (generation !== this.generation) return;
			this.tools = tools;
			this.events.toolsChanged(this);
		} catch {
			// The old list stays; a dead server reports through onClosed.
		}
	}

	private fail(problem: string, when: "start" | "restart" | "died"): void {
		const wasReady = this.state === "ready";
		this.state = "failed";
		this.problem = problem;
		const client = this.client;
		this.client = undefined;
		void client?.close();
		if (when === "start") this.events.report("error", `MCP server ${this.name} failed to start: ${problem}`);
		else if (when === "restart") this.events.report("error", `MCP server ${this.name} could not be started again: ${problem}`);
		else if (wasReady) this.events.report("warning", `MCP server ${this.name} stopped: ${problem}. Its tools answer with an error until it is started again, on their next call.`);
	}
}
