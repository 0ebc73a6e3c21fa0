// Assembles an AgentSession from flags and settings: model registry, tools, session file, system prompt parts.
// Loaded only on paths that run a model, so --help and --version never import the SDKs.
import type { ToolDefinition } from "../core/index.js";
import { loadModelRegistry, streamModel } from "../core/llm/index.js";
import { AgentSession, buildSessionContext, loadContextFiles, type ModelSelection, type Settings, SessionStore, settingsPath } from "../core/session/index.js";
import { configuredKeys, installApprovalPolicy, RuleError, secretMask } from "../policy/index.js";
import { installCheckpoints } from "../checkpoints/install-checkpoints.js";
import { installExport } from "../export/export-session.js";
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
	const models = loadModelRegistry(home);
	const secrets = secretMask(process.env, configuredKeys(models, options.apiKey));
	const { known, defaults } = createBuiltinTools(cwd, undefined, { redact: (text, live) => (live ? secrets.maskLive(text) : secrets.mask(text)) });
	const tools = selectTools(known, options.tools, defaults);
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
	try {
		const flags = { approval: options.approval, allow: options.allow, deny: options.deny };
		installApprovalPolicy(session, { flags, settings, settingsFile: settingsPath(home), secrets });
	} catch (error) {
		session.dispose();
		if (error instanceof RuleError && error.source.startsWith("--")) throw new UsageError(error.message);
		throw error;
	}
	await installResources(session, { cwd, home });
	const { enabled, ...limits } = settings.checkpoints ?? {};
	installCheckpoints(session, { home, enabled, limits });
	installExport(session);
	return session;
}

function openStore({ sessionFile, fork, home, cwd, options }: SessionSetup): Promise<SessionStore> | SessionStore {
	if (sessionFile === undefined) return SessionStore.create({ home, cwd, persist: options.persist });
	return fork ? SessionStore.fork(sessionFile, { home, cwd }, options.fork?.entry) : SessionStore.open(sessionFile);
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
 * The tools --tools names, in the order of `known` (without --tools: `defaults`); an unknown name is a usage
 * error listing the known ones.
 */
export function selectTools(known: ToolDefinition[], names: readonly string[] | undefined, defaults: ToolDefinition[] = known): ToolDefinition[] {
	if (names === undefined) return defaults;
	const unknown = names.filter((name) => !known.some((tool) => tool.name === name));
	if (unknown.length > 0) {
		throw new UsageError(`--tools: unknown tool ${unknown.join(", ")}; choose from ${known.map((tool) => tool.name).join(",")}.`);
	}
	return known.filter((tool) => names.includes(tool.name));
}
