// The session's MCP servers: started together when the session is assembled (a project's once it is trusted),
// their tools given to the session's tool set as each server becomes ready, a prompt waiting for the servers
// still starting before its run starts, and every server closed with the session.
import type { AgentToolResult, NoticeLevel, ToolDefinition } from "../../core/index.js";
import { checkableSchema, errorMessage, textFromContent } from "../../core/index.js";
import type { ConfiguredServer } from "./config-sources.js";
import type { ListedTool } from "./open-client.js";
import { type ClientOpener, ServerConnection } from "./server-connection.js";
import { mcpToolName, patternMayNameServer } from "./tool-names.js";
import { convertToolResult, type McpToolDetails } from "./tool-result.js";

/** How long a prompt waits for servers without a word. */
const QUIET_WAIT_MS = 2000;

/** The session's tool set, as the servers use it (the SDK's ToolCatalog). */
export interface McpToolSet {
	/** The names and patterns tools were chosen by (`--tools`); undefined when they were not. */
	readonly chosen: readonly string[] | undefined;
	/** Every tool, the servers' own included. */
	readonly all: readonly ToolDefinition<any>[];
	/** Whether the tool choice enables a tool so named. */
	allows(name: string): boolean;
	/** Tools that change as a whole: `set` replaces them (throwing on a name another tool has). */
	group(owner: string): { set(tools: readonly ToolDefinition<any>[]): void };
}

export interface McpServersOptions {
	tools: McpToolSet;
	notify(level: NoticeLevel, text: string): void;
	open: ClientOpener;
	/** How long a prompt waits without a word before saying it waits for servers. */
	quietWaitMs?: number;
}

export class McpServers {
	readonly connections: readonly ServerConnection[];
	/** Loom's name for each server's tool (by JSON [server, tool]), kept so a name never moves to another tool. */
	private readonly names = new Map<string, string>();
	/** Each listed tool's definition, made once: a sync after another server's start reuses it (its schema converted already). */
	private readonly definitions = new WeakMap<ListedTool, ToolDefinition<any>>();
	/** Where the servers' tools go, and those given so far. */
	private readonly toolGroup: { set(tools: readonly ToolDefinition<any>[]): void };
	private given: readonly ToolDefinition<any>[] = [];

	constructor(
		servers: readonly ConfiguredServer[],
		private readonly options: McpServersOptions,
	) {
		const events = {
			toolsChanged: () => this.syncTools(),
			report: (level: NoticeLevel, text: string) => options.notify(level, text),
		};
		this.toolGroup = options.tools.group("an MCP server");
		// A project's servers wait for its trust: see startProject().
		this.connections = servers.map((entry) => new ServerConnection(entry, options.open, events, !entry.fromProject));
	}

	/** Starts every server that may be used, the project's aside, in parallel; returns at once. */
	start(): void {
		for (const connection of this.connections) if (connection.state !== "untrusted") this.startOne(connection);
	}

	/** The project's servers that would start once it is trusted. */
	get projectServers(): ServerConnection[] {
		return this.connections.filter((connection) => connection.state === "untrusted" && this.wanted(connection));
	}

	/** The project is trusted: starts its servers; returns at once. */
	startProject(): void {
		for (const connection of this.projectServers) {
			connection.trust();
			this.startOne(connection);
		}
	}

	private startOne(connection: ServerConnection): void {
		if (!this.wanted(connection)) return;
		if (connection.state === "unusable") {
			this.options.notify("error", `MCP server ${connection.name} was not started: ${connection.problem} (${connection.entry.source}).`);
		}
		void connection.start();
	}

	/**
	 * Before a prompt's run: waits for the servers still starting (each start is bounded by its startup timeout),
	 * saying so when it takes a while.
	 */
	async beforeRun(signal: AbortSignal): Promise<void> {
		const starting = this.connections.filter((connection) => connection.state === "starting");
		if (starting.length === 0) return;
		const wait = Promise.all(starting.map((connection) => connection.settled()));
		const timer = setTimeout(() => {
			const still = starting.filter((connection) => connection.state === "starting").map((connection) => connection.name);
			if (still.length > 0) this.options.notify("info", `Waiting for MCP servers to start: ${still.join(", ")}.`);
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
			return name === undefined ? [] : [{ name, enabled: this.options.tools.allows(name) }];
		});
	}

	/** Closes every server (a stdio server's whole process group ends). */
	async close(): Promise<void> {
		await Promise.all(this.connections.map((connection) => connection.close()));
	}

	/** Gives the tool set the ready servers' tools, in the servers' order, under names no other tool has. */
	private syncTools(): void {
		const taken = new Set(this.options.tools.all.filter((tool) => !this.given.includes(tool)).map((tool) => tool.name));
		const mine: ToolDefinition<any>[] = [];
		for (const connection of this.connections) {
			for (const tool of connection.tools) {
				let definition = this.definitions.get(tool);
				if (!definition) {
					definition = mcpToolDefinition(connection, tool, this.nameOf(connection.name, tool.name, taken));
					this.definitions.set(tool, definition);
				}
				mine.push(definition);
			}
		}
		try {
			this.toolGroup.set(mine);
			this.given = mine;
		} catch (error) {
			this.options.notify("error", `The MCP tools could not be added: ${errorMessage(error)}`);
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

	/** A server none of whose tools `--tools` could name is not started at all. */
	wanted(connection: ServerConnection): boolean {
		const chosen = this.options.tools.chosen;
		return chosen === undefined || chosen.some((pattern) => patternMayNameServer(pattern, connection.name));
	}
}

function aborted(signal: AbortSignal): Promise<void> {
	return new Promise((resolveAbort) => {
		if (signal.aborted) resolveAbort();
		else signal.addEventListener("abort", () => resolveAbort(), { once: true });
	});
}

// A server's tools as loom tool definitions: `mcp__<server>__<tool>`, the server's JSON Schema checked like any
// tool's arguments, `readOnly` from the tool's readOnlyHint, progress shown while a call runs, and the result
// converted to content the model reads.

/** The definition of one listed tool of `connection`, named `name`. */
function mcpToolDefinition(connection: ServerConnection, tool: ListedTool, name: string): ToolDefinition<any, McpToolDetails> {
	const server = connection.name;
	return {
		name,
		label: `${server}: ${tool.title ?? tool.annotations?.title ?? tool.name}`,
		description: tool.description?.trim() || `The tool ${tool.name} of the MCP server ${server}.`,
		parameters: checkableSchema(tool.inputSchema),
		readOnly: tool.annotations?.readOnlyHint === true ? true : undefined,
		async execute(_toolCallId, params, signal, onUpdate): Promise<AgentToolResult<McpToolDetails>> {
			const details: McpToolDetails = { server, tool: tool.name };
			const result = await connection.call(tool.name, (params ?? {}) as Record<string, unknown>, {
				signal,
				timeoutMs: connection.entry.spec!.timeoutMs,
				onProgress: ({ progress, total, message }) => {
					const count = total === undefined ? `${progress}` : `${progress}/${total}`;
					onUpdate?.({ content: [{ type: "text", text: message ? `progress ${count}: ${message}` : `progress ${count}` }], details });
				},
			});
			const converted = await convertToolResult(result, server, tool.name);
			if (converted.isError) {
				const text = textFromContent(converted.content);
				throw new Error(text || `MCP server ${server} reported an error without a message.`);
			}
			return { content: converted.content, details: converted.details };
		},
	};
}
