// The one way a session is made, for the CLI and for code embedding loom: options mirroring the command line,
// the user's settings and models.json, the built-in tools, the default system prompt with context files, then
// the install steps (extensions, and whatever else plugs into the session) in a fixed order.
import { homedir, tmpdir } from "node:os";
import { resolve } from "node:path";
import {
	authFilePath,
	raceAbort,
	expandHome,
	repositoryTop,
	type SandboxMode,
	loadModelRegistry,
	streamModel,
	type ApprovalMode,
	AgentSession,
	buildSessionContext,
	loadContextFiles,
	loadSettings,
	loomHome,
	ProjectTrustGate,
	type OutputSchema,
	type SessionUi,
	type Settings,
	settingsPath,
	settingsWarnings,
	type SecretMask,
	nonInteractiveUi,
	stderrNotice,
	type OptionWording,
} from "../core/index.js";
import type { NoticeLevel, ToolExecutionMode, ThinkingLevel, TodoItem } from "../core/index.js";
import type { ExtensionFactory } from "../plugs/index.js";
import {
	type ExtensionsReport,
	installExtensions,
	NamedExtensionsError,
	configuredKeys,
	configuredMcpCredentials,
	installApprovalPolicy,
	preloadShellParser,
	installPlanMode,
	secretMask,
	installResources,
	installCheckpoints,
	installExport,
	installMcp,
	installHooks,
	installSandbox,
	Sandbox,
	sandboxPathRules,
	hostAllowed,
	serverToolPrefix,
	installLsp,
	LanguageServers,
	runLspQuery,
} from "../plugs/index.js";
import { BUILTIN_TOOLS, createBuiltinTools, createUserCommandRunner, sessionProcessGroups, type TextFileAccess } from "../tools/index.js";
import { backgroundShellsFor, installBackgroundShells } from "./background-shells-command.js";
import { type ModelOptions, modelChoice, namedModelChoice } from "./model-option.js";
import { SessionManager } from "./session-manager.js";
import { SessionOptionError } from "./session-option-error.js";
import { installLoginCommand } from "./login-command.js";
import { maskWithStoredLogins } from "./login-secrets.js";
import { type ToolChoice, ToolCatalog } from "./tool-catalog.js";
import { AgentDefinitions, installSubagents, type SubagentsSetup } from "./subagents.js";

export interface CreateAgentSessionOptions extends ModelOptions {
	/** The working directory of the tools and the project. Default: the session manager's, else process.cwd(). */
	cwd?: string;
	/** Where settings.json, models.json, sessions and the user's extensions live. Default: $LOOM_HOME, else ~/.loom. */
	loomHome?: string;
	/** Default: loomHome's settings.json. */
	settings?: Settings;
	/** Default: the continued session's, else settings', else "off". */
	thinkingLevel?: ThinkingLevel;
	/** "parallel" (default) or "sequential": every tool call one at a time. Also settable later on `session.agent`. */
	toolExecution?: ToolExecutionMode;
	/**
	 * Default: the default built-in tools (read, bash, edit, write) and every extension's and MCP server's. Names
	 * pick among every built-in (grep, find, ls too), extension and MCP tool (`*` any characters:
	 * `mcp__github__*`); definitions add tools of your own.
	 */
	tools?: ToolChoice;
	/** Replaces loom's default prompt (the project's context files and the working directory are still added). */
	systemPrompt?: string;
	appendSystemPrompt?: string;
	/** AGENTS.md / CLAUDE.md from loomHome and the directories down to cwd (default true). */
	contextFiles?: boolean;
	/**
	 * Extension paths (relative to cwd) and factories, loaded after loomHome's and the project's extensions folders.
	 * Each must load: one that does not rejects the session with a SessionOptionError naming it and why.
	 */
	extensions?: readonly (string | ExtensionFactory)[];
	/** Run the project's own code (.loom/extensions, .mcp.json servers) without asking, for this session. Default: settings' trustProjects. */
	trustProject?: boolean;
	/**
	 * MCP server configurations (files relative to cwd, or JSON text), besides the project's .mcp.json and
	 * loomHome's mcp.json; a later one wins a server's name. A broken one rejects with an McpConfigError.
	 */
	mcpConfig?: readonly string[];
	/** Default: SessionManager.create(cwd), a new session file. */
	sessionManager?: SessionManager;
	/** Stop a prompt's run after this many model turns. */
	maxTurns?: number;
	/**
	 * Every model request asks for a final answer that is JSON valid against this schema, the provider's own way
	 * (see StreamOptions.outputSchema). The answer is not validated here: the caller does (loom's --output-schema).
	 */
	outputSchema?: OutputSchema;
	/** false: take no checkpoints (a throwaway worktree's run); default settings' checkpoints.enabled. Never for an in-memory session. */
	checkpoints?: boolean;
	/** How the session asks and tells the user until an interface installs its own (default: notices on stderr, no questions). */
	ui?: SessionUi;
	/**
	 * Where read, edit and write get and put text files' content instead of the disk: an editor's buffers (ACP),
	 * with the user's unsaved changes. The files are still checked on disk (they exist, they are text).
	 */
	files?: TextFileAccess;
	/** Approval mode (default: settings' approval, else "auto"); rules like "bash(npm test)", added to settings' own. */
	approval?: ApprovalMode;
	allow?: readonly string[];
	deny?: readonly string[];
	/**
	 * The kernel sandbox of bash commands and stdio MCP servers (default: settings' sandbox.mode, else
	 * workspace-write where bubblewrap or sandbox-exec works, else off with a notice said once).
	 */
	sandbox?: SandboxMode;
	/**
	 * Start as this agent definition (its name; see the README's "Subagents"): its tools, model, approval and
	 * sandbox modes unless these options give their own, and its instructions added to the system prompt.
	 */
	agent?: string;
	/**
	 * The loads that spare the first shell command its waits (the shell grammar the policy reads commands with, the
	 * sandbox's probe) start once this settles; default: once the first answer begins (they must not hold back its
	 * request). The screen passes its first frame, which they must not slow either.
	 */
	preloadAfter?: PromiseLike<unknown>;
}

/** What the install steps report. */
interface Installed {
	/** Extensions loaded and those that failed (each also reported through session.ui). */
	extensions: ExtensionsReport;
}

export interface CreateAgentSessionResult extends Installed {
	session: AgentSession;
	/**
	 * The project's trust: what of the project's own code waits for it (`pending`). The question is asked as soon
	 * as `session.ui` can ask (an interactive ui installed now or later); what waited starts on a yes.
	 */
	projectTrust: ProjectTrustGate;
}

/** Assembles a session; rejects with a SessionOptionError for an unusable option, or when the session file cannot be opened. */
export function createAgentSession(options: CreateAgentSessionOptions = {}): Promise<CreateAgentSessionResult> {
	return assembleAgentSession(options, {});
}

/**
 * How a caller's user sets what the session's messages tell them to set: the model layer's options (a key, a base
 * URL, a provider) and how a session without a file is described. The command line names its flags.
 */
export interface CallerWording extends Partial<OptionWording> {
	notSaved?: string;
}

/**
 * createAgentSession for a caller whose user sets options another way: `wording` is how messages name them (the
 * command line: its flags; unset: the options of createAgentSession). Not in the package's entry.
 */
export async function assembleAgentSession(given: CreateAgentSessionOptions, wording: CallerWording, depth = 0): Promise<CreateAgentSessionResult> {
	const home = given.loomHome ? resolve(expandHome(given.loomHome)) : loomHome();
	const settings = given.settings ?? loadSettings(home);
	const manager = given.sessionManager ?? SessionManager.create();
	const cwd = resolve(given.cwd ?? manager.cwd ?? process.cwd());
	const projectTrust = new ProjectTrustGate(home, cwd, given.trustProject ?? settings.trustProjects ?? false);
	const agentWarnings: string[] = [];
	const agents = new AgentDefinitions();
	await agents.load({ cwd, home }, projectTrust, (problem) => agentWarnings.push(problem));
	const options = asAgent(given, agents, projectTrust);
	const registry = loadModelRegistry(home, process.env, wording);
	const named = namedModelChoice(options, settings, registry);
	const store = await manager.openStore(home, cwd);
	const previous = buildSessionContext(store.entries);
	const contextFiles = options.contextFiles === false ? [] : loadContextFiles(cwd, home);
	const { selection, models } = named ?? modelChoice(options, settings, registry, previous.model);
	const mcpCredentials = configuredMcpCredentials({ cwd, home, configs: options.mcpConfig });
	const keys = configuredKeys(registry, options.apiKey);
	const secrets = maskWithStoredLogins(home, (tokens) => secretMask(process.env, [...keys, ...tokens], mcpCredentials));
	// The background jobs of this session's commands end with it, not with another session of the same process.
	const processGroups = sessionProcessGroups();
	const redact = (text: string, live: boolean) => (live ? secrets.maskLive(text) : secrets.mask(text));
	// Nothing starts before the first file a server covers is read or edited.
	const sandbox = sessionSandbox(options, settings, home, cwd);
	const languageServers = new LanguageServers({ cwd, settings: settings.lsp, confine: sandbox.confine });
	let made: AgentSession | undefined;
	const backgroundShells = backgroundShellsFor(() => made, (text) => redact(text, false));
	// todo_write puts its list in the session made just below (its calls come only once the session runs).
	const todos = { set: (items: readonly TodoItem[]) => session.setTodos(items) };
	const builtins = createBuiltinTools(cwd, BUILTIN_TOOLS, {
		processGroups,
		redact,
		files: options.files,
		confine: sandbox.confine,
		backgroundShells,
		ui: () => session.ui,
		web: settings.web,
		refuseHost: (host) => webHostRefusal(sandbox, host),
		todos,
		languageServers: { query: (input) => runLspQuery(languageServers, input) },
	});
	const tools = new ToolCatalog(builtins.known, options.tools, builtins.defaults);
	const session = new AgentSession({
		cwd,
		home,
		store,
		notSavedText: wording.notSaved,
		createStore: () => manager.newStore(home, cwd),
		models,
		selection,
		streamFn: streamModel,
		prompt: {
			customPrompt: options.systemPrompt,
			appendPrompt: options.appendSystemPrompt,
			contextFiles,
		},
		knownTools: builtins.known,
		toolSettings: settings.tools,
		thinkingLevel: options.thinkingLevel ?? previous.thinkingLevel ?? settings.thinking ?? "off",
		toolExecution: options.toolExecution ?? settings.toolExecution ?? "parallel",
		maxRetries: settings.retry?.maxRetries,
		idleTimeoutMs: settings.retry?.idleTimeoutMs,
		compaction: settings.compaction,
		maxTurns: options.maxTurns,
		outputSchema: options.outputSchema,
		warnings: [...settingsWarnings(settings), ...agentWarnings, ...contextFiles.flatMap((file) => (file.warning ? [file.warning] : []))],
		userCommands: createUserCommandRunner(cwd, { processGroups, redact }),
		untrustedTool: untrustedServerTools(settings.web?.untrustedMcpServers),
	});
	made = session;
	session.setUi(options.ui ?? stderrUi());
	session.onDispose(() => processGroups.killAll());
	installBackgroundShells(session, backgroundShells);
	installLoginCommand(session, home);
	tools.attach(session);
	try {
		const subagents: SubagentsSetup = {
			parent: () => session,
			options,
			// A child keeps no file for a reason of its own, not the caller's (--no-session).
			assemble: (child, childDepth) => assembleAgentSession(child, { ...wording, notSaved: undefined }, childDepth),
			cwd,
			home,
			settings,
			depth,
			persists: manager.persists,
			trust: projectTrust,
			agents,
			sandboxMode: () => sandbox.mode,
			knownTool: (name) => tools.all.some((tool) => tool.name === name),
		};
		const installed = await install(session, { options, home, cwd, settings, tools, projectTrust, secrets, sandbox, languageServers, persists: manager.persists, subagents });
		tools.checkChoice();
		// The first command must not wait for the shell grammar or the sandbox's probe: they load in the background,
		// while the model's first answer comes.
		if (session.tools.some((tool) => tool.shellCommand !== undefined)) {
			const preload = () => {
				preloadShellParser();
				sandbox.preload();
			};
			void Promise.resolve(options.preloadAfter ?? session.firstAnswer()).then(preload, preload);
		}
		if (projectTrust.status === "undecided" && projectTrust.pending.length > 0) {
			session
				.whenInteractive()
				.then((ui) => {
					const answered = projectTrust.ask(ui);
					// A prompt sent while the question is open, or while what a yes started is loading, waits for it:
					// the project's guards are in place before its run.
					const removeGate = session.addRunGate((signal) => raceAbort(answered, signal, 0).then(() => {}));
					return answered.finally(removeGate);
				})
				.catch((error: Error) => session.ui.notify("error", `The project's code was not started: ${error.message}`));
		}
		return { session, ...installed, projectTrust };
	} catch (error) {
		session.dispose();
		throw error;
	}
}

/**
 * The options with the named agent definition's settings where the options give none; its instructions come after
 * the appended prompt. Throws a SessionOptionError for an agent nobody defines (or the untrusted project's).
 */
function asAgent(options: CreateAgentSessionOptions, agents: AgentDefinitions, trust: ProjectTrustGate): CreateAgentSessionOptions {
	if (options.agent === undefined) return options;
	const definition = agents.find(options.agent);
	if (!definition) {
		const known = agents.all.map((agent) => agent.name);
		const untrusted = trust.status === "trusted" ? "" : " (the project's own agents are read once the project is trusted: --trust)";
		throw new SessionOptionError("agent", `no agent named "${options.agent}"${known.length > 0 ? `; choose from ${known.join(", ")}` : ""}${untrusted}.`);
	}
	const named = options.provider !== undefined || options.model !== undefined;
	return {
		...options,
		...(definition.model && !named ? { model: definition.model } : {}),
		tools: options.tools ?? definition.tools,
		approval: options.approval ?? definition.approval,
		sandbox: options.sandbox ?? definition.sandbox,
		appendSystemPrompt: [options.appendSystemPrompt, definition.prompt].filter(Boolean).join("\n\n") || undefined,
	};
}

/** Whether a tool belongs to one of the MCP servers settings mark untrusted (their results taint the conversation). */
function untrustedServerTools(servers: readonly string[] | undefined): ((toolName: string) => boolean) | undefined {
	if (!servers || servers.length === 0) return undefined;
	const prefixes = servers.map(serverToolPrefix);
	return (toolName) => prefixes.some((prefix) => toolName.startsWith(prefix));
}

/** What the install steps are given: the options as passed, and what the assembly resolved from them. */
interface Assembly {
	options: CreateAgentSessionOptions;
	home: string;
	cwd: string;
	settings: Settings;
	/** The session's tool set: a step adds its tools here (they are enabled unless the options chose tools by name). */
	tools: ToolCatalog;
	/** Project code (extensions, servers) starts through it, once the project is trusted. */
	projectTrust: ProjectTrustGate;
	/** The configured keys and secret-looking environment values, masked in what tools return. */
	secrets: SecretMask;
	/** False for an in-memory session: nothing of it is written under loom's home (no checkpoints either). */
	persists: boolean;
	/** The session's language servers (the lsp tool asks them too). */
	languageServers: LanguageServers;
	/** What commands and stdio servers start through. */
	sandbox: Sandbox;
	/** What the task tool starts its children from. */
	subagents: SubagentsSetup;
}

/** With the sandbox on and a network allowlist, web_fetch reaches what commands may reach, and no more. */
function webHostRefusal(sandbox: Sandbox, host: string): string | undefined {
	const allow = sandbox.networkAllow;
	if (allow.length === 0 || sandbox.mode === "off" || hostAllowed(host, allow)) return undefined;
	return `${host} is not in the sandbox's network allowlist (sandbox.network.allow: ${allow.join(", ")}); add it in settings to fetch from it.`;
}

/** The session's sandbox: the mode asked for, the settings' roots and allowlist, the approval rules' paths. */
function sessionSandbox(options: CreateAgentSessionOptions, settings: Settings, home: string, cwd: string): Sandbox {
	const userHome = homedir();
	let pathRules;
	try {
		pathRules = sandboxPathRules({ flags: { allow: options.allow, deny: options.deny }, settings, settingsFile: settingsPath(home), cwd, home: userHome });
	} catch {
		// A bad rule is reported by the approval policy's installation, which rejects the session.
	}
	return new Sandbox({
		mode: options.sandbox ?? settings.sandbox?.mode,
		workTree: repositoryTop(cwd) ?? cwd,
		home: userHome,
		tmpDir: tmpdir(),
		settings: settings.sandbox,
		pathRules,
		secretFiles: [authFilePath(home)],
	});
}

/**
 * The install steps, in order: each is one call to the one function of the module that plugs into the session.
 * Hook links order themselves by stage (policy, extension, final), so this order only decides whose commands and
 * tools come first and who may see the others'.
 */
async function install(session: AgentSession, assembly: Assembly): Promise<Installed> {
	const { options, home, cwd, settings, tools, projectTrust, secrets, sandbox, languageServers, persists, subagents } = assembly;
	const flags = { approval: options.approval, allow: options.allow, deny: options.deny };
	// Before the policy: a PreToolUse hook's link runs ahead of the approval link in the same stage.
	installHooks(session, { cwd, home, settings, trust: projectTrust, optIn: options.trustProject ?? settings.trustProjects ?? false, confine: sandbox.confine });
	const policy = installApprovalPolicy(session, { flags, settings, settingsFile: settingsPath(home), secrets });
	installPlanMode(session, { control: policy, tools });
	// MCP servers start here and come up while the rest loads.
	installSandbox(session, sandbox);
	installMcp(session, { cwd, home, configs: options.mcpConfig, trust: projectTrust, tools, confine: sandbox.confine });
	await installResources(session, { cwd, home });
	const { enabled, ...limits } = settings.checkpoints ?? {};
	const checkpointer = installCheckpoints(session, { home, enabled: persists && options.checkpoints !== false && enabled, limits });
	installExport(session);
	installLsp(session, languageServers);
	installSubagents(session, { ...subagents, checkpoints: checkpointer }, tools);
	try {
		const extensions = await installExtensions(session, { cwd, home, extensions: options.extensions, trust: projectTrust, tools, modules: extensionModules, loadTimeoutMs: settings.extensions?.loadTimeoutMs });
		return { extensions };
	} catch (error) {
		throw error instanceof NamedExtensionsError ? new SessionOptionError("extensions", error.message) : error;
	}
}

/** What an extension gets for `import … from "loom"` and from "@sinclair/typebox": this loom's own modules. */
async function extensionModules(): Promise<Record<string, unknown>> {
	const [loom, typebox] = await Promise.all([import("./index.js"), import("@sinclair/typebox")]);
	return { loom, "@sinclair/typebox": typebox };
}

/**
 * The ui where nobody can be asked (print mode, an embedder that brings none): notices are lines on stderr,
 * without the escape sequences an extension or a server may have put in them; questions get no answer.
 */
export function stderrUi(stream: NodeJS.WritableStream = process.stderr): SessionUi {
	return nonInteractiveUi((level: NoticeLevel, text: string) => stream.write(stderrNotice(level, text)));
}

