// The MCP servers of a test, as a session would hold them: real servers through the real client, their tools
// in the session's tool set (a ToolCatalog holding one built-in), the notices the session would be told kept.
import { Type } from "@sinclair/typebox";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { AgentToolResult } from "../../../src/core/engine/agent-types.js";
import type { ToolDefinition } from "../../../src/core/engine/tool-definition.js";
import { validateToolArguments } from "../../../src/core/engine/tool-execution.js";
import type { ConfiguredServer } from "../../../src/plugs/mcp/config-sources.js";
import { parseMcpConfig } from "../../../src/plugs/mcp/mcp-config.js";
import { McpServers } from "../../../src/plugs/mcp/mcp-servers.js";
import { openClient } from "../../../src/plugs/mcp/open-client.js";
import { ToolCatalog } from "../../../src/sdk/tool-catalog.js";

const open: McpServers[] = [];
afterEach(async () => {
	await Promise.all(open.splice(0).map((servers) => servers.close()));
});

/** A built-in tool the MCP tools must join, never replace. */
export const BUILTIN_STAND_IN: ToolDefinition = {
	name: "read",
	label: "read",
	description: "Reads a file.",
	parameters: Type.Object({}),
	execute: async () => ({ content: [], details: undefined }),
};

export interface Notice {
	level: string;
	text: string;
}

export interface CallOptions {
	signal?: AbortSignal;
	updates?: string[];
}

export interface Harness {
	servers: McpServers;
	notices: Notice[];
	tools(): readonly ToolDefinition[];
	/** Waits for the servers still starting, as a prompt does. */
	ready(): Promise<void>;
	/** Validates the arguments as the agent loop does, then runs the tool. */
	call(name: string, args?: Record<string, unknown>, options?: CallOptions): Promise<AgentToolResult<any>>;
}

export interface HarnessOptions {
	cwd?: string;
	/** `--tools`. */
	toolPatterns?: string[];
	/** Servers of the project's .mcp.json: they start only once the project is trusted. */
	projectServers?: string[];
	/** Whether the project is trusted from the start (default true). */
	trusted?: boolean;
	quietWaitMs?: number;
}

export function startServers(config: Record<string, unknown>, options: HarnessOptions = {}): Harness {
	const harness = openServers(config, options);
	open.push(harness.servers);
	return harness;
}

/**
 * One set of servers for the tests of a file (or a describe) that leave them as they found them: started and
 * ready before the first test, closed after the last. Returns a getter for the harness, valid inside tests.
 */
export function sharedServers(config: Record<string, unknown> | (() => Record<string, unknown>), options: HarnessOptions = {}): () => Harness {
	let harness: Harness | undefined;
	// After the hooks registered before it (a server the configuration names): a function is read then.
	beforeAll(async () => {
		harness = openServers(typeof config === "function" ? config() : config, options);
		await harness.ready();
	});
	afterAll(async () => {
		await harness?.servers.close();
	});
	return () => {
		if (!harness) throw new Error("sharedServers: used outside a test");
		return harness;
	};
}

function openServers(config: Record<string, unknown>, options: HarnessOptions): Harness {
	const entries: ConfiguredServer[] = parseMcpConfig(JSON.stringify({ mcpServers: config }), {
		source: "test config",
		env: process.env,
		cwd: options.cwd ?? process.cwd(),
	}).map((entry) => ({ ...entry, fromProject: options.projectServers?.includes(entry.name) ?? false }));
	const notices: Notice[] = [];
	const catalog = new ToolCatalog([BUILTIN_STAND_IN], options.toolPatterns);
	const servers = new McpServers(entries, {
		tools: catalog,
		notify: (level, text) => notices.push({ level, text }),
		open: (spec, events) => openClient(spec, "test", events),
		quietWaitMs: options.quietWaitMs ?? 60_000,
	});
	servers.start();
	if (options.trusted ?? true) servers.startProject();
	return {
		servers,
		notices,
		tools: () => catalog.enabled(),
		ready: () => servers.beforeRun(new AbortController().signal),
		async call(name, args = {}, callOptions = {}) {
			const tools = catalog.enabled();
			const tool = tools.find((candidate) => candidate.name === name);
			if (!tool) throw new Error(`No tool ${name}; tools: ${tools.map((candidate) => candidate.name).join(", ")}`);
			const valid = validateToolArguments(tool, { arguments: args });
			return tool.execute("call-1", valid, callOptions.signal, (update) => {
				callOptions.updates?.push(update.content.map((part) => (part.type === "text" ? part.text : "[image]")).join(""));
			});
		},
	};
}

/** The text parts of a result, joined. */
export function resultText(result: AgentToolResult<any>): string {
	return result.content.map((part) => (part.type === "text" ? part.text : `[image ${part.mimeType}]`)).join("\n");
}
