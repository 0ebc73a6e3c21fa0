// Assembles an AgentSession from flags and settings: model registry, tools, session file, system prompt parts.
// Loaded only on paths that run a model, so --help and --version never import the SDKs.
import type { ToolDefinition } from "../core/index.js";
import { loadModelRegistry, streamModel } from "../core/llm/index.js";
import { AgentSession, buildSessionContext, loadContextFiles, type ModelSelection, type Settings, SessionStore } from "../core/session/index.js";
import { installMcp, loadMcpConfig, matchesToolPattern, patternMayNameServer } from "../mcp/index.js";
import { installResources } from "../resources/install-resources.js";
import { createBuiltinTools } from "../tools/index.js";
import type { CliOptions } from "./args.js";
import { UsageError } from "./usage-error.js";

export interface SessionSetup {
	options: CliOptions;
	settings: Settings;
	home: string;
	cwd: string;
	/** An existing session file to continue, or undefined for a new session. */
	sessionFile?: string;
	/** Start a new session from sessionFile's conversation instead of continuing it (--fork). */
	fork?: boolean;
}

export async function createSession(setup: SessionSetup): Promise<AgentSession> {
	const { options, settings, home, cwd } = setup;
	const { known, defaults } = createBuiltinTools(cwd);
	const mcp = loadMcpConfig({ cwd, home, configs: options.mcpConfig });
	const tools = selectTools(known, options.tools, defaults, mcp.servers.map((server) => server.name));
	const models = loadModelRegistry(home);
	const store = await openStore(setup);
	const previous = buildSessionContext(store.entries);
	const contextFiles = options.contextFiles ? loadContextFiles(cwd, home) : [];
	const session = new AgentSession({
		cwd,
		home,
		store,
		createStore: () => SessionStore.create({ home, cwd, persist: options.persist }),
		models,
		selection: chooseModel(options, settings, previous.model),
		streamFn: streamModel,
		prompt: {
			customPrompt: options.systemPrompt,
			appendPrompt: options.appendSystemPrompt,
			contextFiles,
		},
		tools,
		knownTools: known,
		toolSettings: settings.tools,
		thinkingLevel: options.thinking ?? previous.thinkingLevel ?? settings.thinking ?? "off",
		toolExecution: options.toolExecution ?? settings.toolExecution ?? "parallel",
		maxRetries: settings.retry?.maxRetries,
		idleTimeoutMs: settings.retry?.idleTimeoutMs,
		compaction: settings.compaction,
		maxTurns: options.maxTurns,
		warnings: contextFiles.flatMap((file) => (file.warning ? [file.warning] : [])),
	});
	// MCP servers first: they start while the resources load.
	installMcp(session, mcp, { cwd, home, toolPatterns: options.tools });
	await installResources(session, { cwd, home });
	return session;
}

function openStore({ sessionFile, fork, home, cwd, options }: SessionSetup): Promise<SessionStore> | SessionStore {
	if (sessionFile === undefined) return SessionStore.create({ home, cwd, persist: options.persist });
	return fork ? SessionStore.fork(sessionFile, { home, cwd }) : SessionStore.open(sessionFile);
}

/**
 * Flags win; a resumed session keeps the model it last used; then settings; then the registry's default.
 * A settings model belongs to the settings provider, so `--provider x` alone does not inherit another provider's model.
 */
export function chooseModel(
	options: Pick<CliOptions, "provider" | "model" | "baseUrl" | "apiKey">,
	settings: Settings,
	previous?: { provider: string; modelId: string },
): ModelSelection {
	const overrides = { baseUrl: options.baseUrl, apiKey: options.apiKey };
	if (options.provider || options.model) {
		const modelId = options.model ?? (options.provider === settings.provider ? settings.model : undefined);
		return { provider: options.provider, modelId, ...overrides };
	}
	if (previous) return { provider: previous.provider, modelId: previous.modelId, ...overrides };
	return { provider: settings.provider, modelId: settings.model, ...overrides };
}

/**
 * The tools --tools names, in the order of `known` (without --tools: `defaults`); `*` in a name stands for any
 * characters. A name or pattern that may name a tool of a configured MCP server (`mcp__github__*`) is left for
 * the MCP tools, which arrive once their server has started; any other unknown name is a usage error listing
 * the known ones.
 */
export function selectTools(
	known: ToolDefinition[],
	names: readonly string[] | undefined,
	defaults: ToolDefinition[] = known,
	mcpServers: readonly string[] = [],
): ToolDefinition[] {
	if (names === undefined) return defaults;
	const unknown = names.filter(
		(name) => !known.some((tool) => matchesToolPattern(name, tool.name)) && !mcpServers.some((server) => patternMayNameServer(name, server)),
	);
	if (unknown.length > 0) {
		const mcp = mcpServers.length > 0 ? `, or mcp__<server>__<tool> (mcp__<server>__* for all) of the MCP servers ${mcpServers.join(", ")}` : "";
		throw new UsageError(`--tools: unknown tool ${unknown.join(", ")}; choose from ${known.map((tool) => tool.name).join(",")}${mcp}.`);
	}
	return known.filter((tool) => names.some((name) => matchesToolPattern(name, tool.name)));
}
