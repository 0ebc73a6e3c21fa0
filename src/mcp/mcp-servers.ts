// The session's MCP servers: started together when the session is assembled, their tools added to the
// session's as each server becomes ready (built-in and other tools kept), a prompt waiting for the servers
// still starting before its run starts, and every server closed with the session.
import type { NoticeLevel } from "../core/session/command-registry.js";
import type { ToolDefinition } from "../core/tool-definition.js";
import type { ConfiguredServer } from "./config-sources.js";
import { mcpToolDefinition } from "./mcp-tools.js";
import { type ClientOpener, ServerConnection } from "./server-connection.js";
import { matchesToolPattern, mcpToolName, patternMayNameServer } from "./tool-names.js";

/** What the servers need of the session. */
/** How long a prompt waits for servers without a word. */
const QUIET_WAIT_MS = 2000;

export interface ToolHost {
	readonly tools: readonly ToolDefinition[];
	setTools(tools: readonly ToolDefinition[]): void;
	notify(level: NoticeLevel, text: string): void;
}

export interface McpServersOptions {
	host: ToolHost;
	open: ClientOpener;
	/** Whether the project's servers may start (checked again before each prompt until they do). */
	projectTrusted: () => boolean;
	/** `--tools` names and patterns: only MCP tools they match are enabled, only servers they may name start. */
	toolPatterns?: readonly string[];
	/** Said once, at the first prompt, when the project's servers were left out for want of trust. */
	untrustedNotice?: string;
	/** How long a prompt waits without a word before saying it waits for servers. */
	quietWaitMs?: number;
}

export class McpServers {
	readonly connections: readonly ServerConnection[];
	/** Loom's name for each server's tool (by JSON [server, tool]), kept so a name never moves to another tool. */
	private readonly names = new Map<string, string>();
	/** The names of the tools this set has given the session. */
	private added = new Set<string>();
	private untrustedNoticeGiven = false;

	constructor(
		servers: readonly ConfiguredServer[],
		private readonly options: McpServersOptions,
	) {
		const events = {
			toolsChanged: () => this.syncTools(),
			report: (level: NoticeLevel, text: string) => options.host.notify(level, text),
		};
		const trusted = options.projectTrusted();
		this.connections = servers.map((entry) => new ServerConnection(entry, options.open, events, trusted || !entry.fromProject));
	}

	/** Starts every server that may be used, in parallel; returns at once. */
	start(): void {
		for (const connection of this.connections) {
			if (!this.wanted(connection)) continue;
			if (connection.state === "unusable") {
				this.options.host.notify("error", `MCP server ${connection.name} was not started: ${connection.problem} (${connection.entry.source}).`);
			}
			void connection.start();
		}
	}

	/**
	 * Before a prompt's run: starts the project's servers if the project has been trusted since, then waits for
	 * the servers still starting (each start is bounded by its startup timeout), saying so when it takes a while.
	 */
	async beforeRun(signal: AbortSignal): Promise<void> {
		this.startNewlyTrusted();
		const starting = this.connections.filter((connection) => connection.state === "starting");
		if (starting.length === 0) return;
		const wait = Promise.all(starting.map((connection) => connection.settled()));
		const timer = setTimeout(() => {
			const still = starting.filter((connection) => connection.state === "starting").map((connection) => connection.name);
			if (still.length > 0) this.options.host.notify("info", `Waiting for MCP servers to start: ${still.join(", ")}.`);
		}, this.options.quietWaitMs ?? QUIET_WAIT_MS);
		try {
			await Promise.race([wait, aborted(signal)]);
		} finally {
			clearTimeout(timer);
		}
	}

	/** Loom's names of a server's tools, and whether `--tools` enabled each. */
	toolsOf(connection: ServerConnection): { name: string; enabled: boolean }[] {
		return connection.tools.flatMap((tool) => {
			const name = this.names.get(JSON.stringify([connection.name, tool.name]));
			return name === undefined ? [] : [{ name, enabled: this.enabled(name) }];
		});
	}

	/** Closes every server (a stdio server's whole process group ends). */
	async close(): Promise<void> {
		await Promise.all(this.connections.map((connection) => connection.close()));
	}

	/**
	 * Starts the project's servers if the project has been trusted since the session opened (checked before each
	 * prompt; whoever asks the trust question may call it at once); until then, says once that they were skipped.
	 */
	startNewlyTrusted(): void {
		const waiting = this.connections.filter((connection) => connection.state === "untrusted" && this.wanted(connection));
		if (waiting.length === 0) return;
		if (!this.options.projectTrusted()) {
			if (!this.untrustedNoticeGiven && this.options.untrustedNotice) this.options.host.notify("warning", this.options.untrustedNotice);
			this.untrustedNoticeGiven = true;
			return;
		}
		for (const connection of waiting) {
			connection.trust();
			void connection.start();
		}
	}

	/** The session's tools: every tool not from these servers as it is, then the ready servers' tools. */
	private syncTools(): void {
		const host = this.options.host;
		const others = host.tools.filter((tool) => !this.added.has(tool.name));
		const taken = new Set(others.map((tool) => tool.name));
		const mine: ToolDefinition[] = [];
		for (const connection of this.connections) {
			for (const tool of connection.tools) {
				const name = this.nameOf(connection.name, tool.name, taken);
				if (this.enabled(name)) mine.push(mcpToolDefinition(connection, tool, name));
			}
		}
		try {
			host.setTools([...others, ...mine]);
			this.added = new Set(mine.map((tool) => tool.name));
		} catch (error) {
			host.notify("error", `The MCP tools could not be added: ${(error as Error).message}`);
		}
	}

	/** Loom's name for a server's tool: given on first sight, then kept for the session. */
	private nameOf(server: string, tool: string, others: ReadonlySet<string>): string {
		const key = JSON.stringify([server, tool]);
		let name = this.names.get(key);
		if (name === undefined) {
			name = mcpToolName(server, tool, new Set([...others, ...this.names.values()]));
			this.names.set(key, name);
		}
		return name;
	}

	private enabled(name: string): boolean {
		const patterns = this.options.toolPatterns;
		return patterns === undefined || patterns.some((pattern) => matchesToolPattern(pattern, name));
	}

	/** A server none of whose tools `--tools` could name is not started at all. */
	wanted(connection: ServerConnection): boolean {
		const patterns = this.options.toolPatterns;
		return patterns === undefined || patterns.some((pattern) => patternMayNameServer(pattern, connection.name));
	}
}

function aborted(signal: AbortSignal): Promise<void> {
	return new Promise((resolveAbort) => {
		if (signal.aborted) resolveAbort();
		else signal.addEventListener("abort", () => resolveAbort(), { once: true });
	});
}
