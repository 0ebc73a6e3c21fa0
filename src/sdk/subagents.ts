// Subagents: the children the task tool starts. Each is a whole session assembled as the parent was (same home,
// settings, model unless its definition names one, the parent's approval mode and rules, sandbox, extensions and
// MCP configuration), with its definition's tools and instructions, a session file of its own, and the parent's
// ui under its name. Its events reach the parent's listeners as subagent_event, tagged with the parent's call id;
// aborting the parent's call aborts it; what it spent comes back in the result's details and counts in the
// parent's totals. A child deeper than settings' subagents.maxDepth (default 1) gets no task tool.
import { homedir } from "node:os";
import { relative } from "node:path";
import type { AgentSession, ApprovalMode, ProjectTrustGate, SandboxMode, SessionUi, Settings, ThinkingLevel, ToolCallState, ToolExecutionMode } from "../core/index.js";
import type { SubagentLink } from "../core/index.js";
import { answerText, errorMessage, oneLine, subagentSessionsDir } from "../core/index.js";
import { type AgentDefinition, type Checkpointer, type ExtensionFactory, agentDirs, agentFiles, type BranchWorktree, linkCheckpointBefore, loadAgents, startBranchWorktree } from "../plugs/index.js";
import { createTaskTool, type SubagentCallRow, type SubagentPort, type TaskToolInput, type TextFileAccess } from "../tools/index.js";
import type { ModelOptions } from "./model-option.js";
import { SessionManager } from "./session-manager.js";
import { SessionOptionError } from "./session-option-error.js";
import { installWorktreeCommands } from "./worktree-commands.js";
import type { ToolCatalog } from "./tool-catalog.js";

/** The agent a task call runs when it names none: the session's default tools, no instructions of its own. */
export const GENERAL_AGENT = "general";
/** How deep subagents nest without settings saying otherwise: the main session's children start none. */
export const DEFAULT_MAX_DEPTH = 1;

/** What a child takes over from the options its parent was assembled from (createAgentSession's). */
export interface InheritedOptions extends ModelOptions {
	toolExecution?: ToolExecutionMode;
	contextFiles?: boolean;
	extensions?: readonly (string | ExtensionFactory)[];
	mcpConfig?: readonly string[];
	files?: TextFileAccess;
	approval?: ApprovalMode;
	allow?: readonly string[];
	deny?: readonly string[];
	sandbox?: SandboxMode;
}

/** The options a child is assembled from (a part of createAgentSession's). */
export interface ChildSessionOptions extends InheritedOptions {
	cwd: string;
	loomHome: string;
	settings: Settings;
	thinkingLevel: ThinkingLevel;
	tools?: readonly string[];
	appendSystemPrompt?: string;
	trustProject: boolean;
	sessionManager: SessionManager;
	checkpoints: boolean;
	ui: SessionUi;
}

/** How a session is assembled (createAgentSession's inside, handed in to keep the modules apart). */
export type AssembleSession = (options: ChildSessionOptions, depth: number) => Promise<{ session: AgentSession }>;

/** The agent definitions a session knows: the user's at once, the project's once it is trusted. */
export class AgentDefinitions {
	private list: AgentDefinition[] = [];
	private readonly changed: (() => void)[] = [];

	get all(): readonly AgentDefinition[] {
		return this.list;
	}

	find(name: string): AgentDefinition | undefined {
		return this.list.find((agent) => agent.name === name);
	}

	/** Calls `listener` whenever definitions are added (the project's, after a yes to its trust). */
	onChange(listener: () => void): void {
		this.changed.push(listener);
	}

	/**
	 * Loads the user's definitions, and the project's now when it is trusted or once it is; returns the problems met
	 * (the session's load warnings). `userHome`: where ~/.claude is.
	 */
	async load(locations: { cwd: string; home: string; userHome?: string }, trust: ProjectTrustGate, warn: (problem: string) => void): Promise<void> {
		const dirs = agentDirs({ ...locations, userHome: locations.userHome ?? homedir() });
		const user = await loadAgents(agentFiles(dirs.user), "user");
		this.list = user.agents;
		user.problems.forEach(warn);
		const projectFiles = agentFiles(dirs.project);
		if (projectFiles.length === 0) return;
		await trust.whenTrusted(
			projectFiles.map((file) => relative(locations.cwd, file)),
			async () => {
				const project = await loadAgents(projectFiles, "project", this.list);
				this.list = [...this.list, ...project.agents];
				project.problems.forEach(warn);
				for (const listener of this.changed) listener();
			},
		);
	}
}

export interface SubagentsSetup {
	/** The parent session (set once it is made). */
	parent: () => AgentSession;
	/** The options the parent was assembled from. */
	options: InheritedOptions;
	assemble: AssembleSession;
	cwd: string;
	home: string;
	settings: Settings;
	/** The parent's depth: 0 for the main session. */
	depth: number;
	/** Whether the parent writes a session file (then each child writes its own). */
	persists: boolean;
	trust: ProjectTrustGate;
	agents: AgentDefinitions;
	/** The parent's sandbox mode as it runs (the option, else settings', else the default). */
	sandboxMode: () => SandboxMode;
	/** Whether the parent's catalog knows a tool of this name (a definition's tools loom lacks are left out). */
	knownTool: (name: string) => boolean;
	/**
	 * The parent's checkpoints, when it takes them: a child working in the parent's tree makes its calls that may
	 * change files wait for the parent's "before", so a rewind of the parent's prompt restores what the child changed.
	 */
	checkpoints?: Checkpointer;
}

/**
 * Finishes a child's worktree and records its branch on the child's link. Says what else the parent must know, if
 * anything: where the files git ignores were kept, or why the work is not on the branch (the error never replaces
 * the child's answer; the worktree is then left in place).
 */
async function finishWorktree(worktree: BranchWorktree, message: string, link: SubagentLink | undefined): Promise<string | undefined> {
	try {
		const { diffStat, kept } = await worktree.finish(message);
		if (link) link.worktree = { branch: worktree.branch, diffStat };
		if (!kept) return undefined;
		const shown = kept.files.slice(0, MAX_KEPT_SHOWN).join(", ");
		const more = kept.files.length > MAX_KEPT_SHOWN ? ` and ${kept.files.length - MAX_KEPT_SHOWN} more` : "";
		return `[Files git ignores, which no commit carries, were moved out of the worktree to ${kept.folder}: ${shown}${more}.]`;
	} catch (error) {
		return `[The subagent's work could not be committed on the branch ${worktree.branch}; its worktree is left as it is at ${worktree.path}. ${errorMessage(error)}]`;
	}
}

const MAX_KEPT_SHOWN = 20;

/** Starts and runs the children of one parent session. */
export class Subagents implements SubagentPort {
	constructor(private readonly setup: SubagentsSetup) {}

	async run(toolCallId: string, input: TaskToolInput, signal: AbortSignal | undefined, progress: (calls: SubagentCallRow[]) => void) {
		const name = input.agent?.trim() || GENERAL_AGENT;
		const definition = name === GENERAL_AGENT ? undefined : this.setup.agents.find(name);
		if (name !== GENERAL_AGENT && !definition) {
			const known = [GENERAL_AGENT, ...this.setup.agents.all.map((agent) => agent.name)].join(", ");
			throw new Error(`There is no agent named "${name}"; name one of ${known}, or none.`);
		}
		signal?.throwIfAborted();
		const isolated = (input.isolation ?? definition?.isolation) === "worktree";
		const worktree = isolated ? await startBranchWorktree(this.setup.cwd, this.setup.home, input.description || name) : undefined;
		let ran: { answer: string; child: SubagentLink } | undefined;
		let failure: { error: unknown } | undefined;
		try {
			ran = await this.runChild(toolCallId, name, definition, worktree?.cwd ?? this.setup.cwd, input.prompt, signal, progress);
		} catch (error) {
			failure = { error };
		}
		// The work is committed on the branch however the child ended: nothing it changed is lost.
		const note = worktree && (await finishWorktree(worktree, `${name}: ${input.description || oneLine(input.prompt, 60)}`, ran?.child));
		if (failure) {
			if (note && failure.error instanceof Error) failure.error.message += `\n\n${note}`;
			throw failure.error;
		}
		return { answer: note ? `${ran!.answer}\n\n${note}` : ran!.answer, link: ran!.child };
	}

	private async runChild(
		toolCallId: string,
		name: string,
		definition: AgentDefinition | undefined,
		cwd: string,
		prompt: string,
		signal: AbortSignal | undefined,
		progress: (calls: SubagentCallRow[]) => void,
	): Promise<{ answer: string; child: SubagentLink }> {
		const child = await this.start(name, definition, cwd);
		const parent = this.setup.parent();
		const rows = new Map<string, SubagentCallRow>();
		const stopForwarding = child.subscribe((event) => {
			if (event.type === "tool_call_changed") {
				rows.set(event.call.id, callRow(event.call));
				progress([...rows.values()]);
			}
			return parent.reportSubagent({ type: "subagent_event", toolCallId, agent: name, sessionId: child.sessionId, event });
		});
		const abort = () => void child.abort();
		signal?.addEventListener("abort", abort, { once: true });
		try {
			// Aborted while the child was being assembled: it never starts.
			if (signal?.aborted) throw new Error(`The ${name} subagent was interrupted.`);
			const outcome = await child.runPrompt(prompt);
			if (outcome.status === "aborted") throw new Error(`The ${name} subagent was interrupted.`);
			if (outcome.status === "error") throw new Error(`The ${name} subagent failed: ${outcome.errorMessage ?? "unknown error"}`);
			const link = { agent: name, sessionId: child.sessionId, ...(child.sessionFile ? { sessionFile: child.sessionFile } : {}), usage: child.usageTotals };
			return { answer: outcome.message ? answerText(outcome.message) : "", child: link };
		} finally {
			signal?.removeEventListener("abort", abort);
			await child.waitForIdle();
			stopForwarding();
			child.dispose();
		}
	}

	/** The child session, assembled; a definition's model nobody knows falls back to the parent's, with a warning. */
	private async start(name: string, definition: AgentDefinition | undefined, cwd: string): Promise<AgentSession> {
		const { options, assemble, depth } = this.setup;
		const parent = this.setup.parent();
		const childOptions = this.childOptions(name, definition, cwd);
		let child: AgentSession;
		try {
			child = (await assemble(childOptions, depth + 1)).session;
		} catch (error) {
			if (!(error instanceof SessionOptionError) || !definition?.model) throw error;
			parent.ui.notify("warning", `${definition.path}: the model "${definition.model}" cannot be used (${errorMessage(error)}); the ${name} agent uses ${parent.provider}/${parent.modelId}.`);
			child = (await assemble({ ...childOptions, provider: parent.provider, model: this.parentModel(), baseUrl: options.baseUrl, apiKey: options.apiKey }, depth + 1)).session;
		}
		const { checkpoints } = this.setup;
		if (checkpoints && cwd === this.setup.cwd) child.onDispose(linkCheckpointBefore(child, checkpoints));
		return child;
	}

	private childOptions(name: string, definition: AgentDefinition | undefined, cwd: string): ChildSessionOptions {
		const { options, home, settings, persists, trust } = this.setup;
		const parent = this.setup.parent();
		const model = definition?.model
			? { model: definition.model }
			: { provider: parent.provider, model: this.parentModel(), baseUrl: options.baseUrl, apiKey: options.apiKey };
		return {
			cwd,
			loomHome: home,
			settings,
			...model,
			thinkingLevel: parent.thinkingLevel,
			toolExecution: options.toolExecution,
			tools: definition?.tools ? this.knownTools(definition) : undefined,
			appendSystemPrompt: definition?.prompt || undefined,
			contextFiles: options.contextFiles,
			extensions: options.extensions,
			trustProject: trust.status === "trusted",
			mcpConfig: options.mcpConfig,
			sessionManager: persists ? SessionManager.create(cwd, { dir: parent.sessionFile && subagentSessionsDir(parent.sessionFile) }) : SessionManager.inMemory(cwd),
			// The parent's checkpoints hold a child's changes to its tree (see SubagentsSetup.checkpoints).
			checkpoints: false,
			ui: subagentUi(() => parent.ui, name),
			// An editor's buffers hold the parent's tree, not a worktree's.
			files: cwd === this.setup.cwd ? options.files : undefined,
			approval: stricter(APPROVAL_STRICTNESS, parent.approvalMode ?? options.approval, definition?.approval),
			allow: options.allow,
			deny: options.deny,
			sandbox: stricter(SANDBOX_STRICTNESS, this.setup.sandboxMode(), definition?.sandbox),
		};
	}

	/** The parent's model as it is now (a /model switch counts), as an option. */
	private parentModel(): ModelOptions["model"] {
		const parent = this.setup.parent();
		const given = this.setup.options.model;
		return typeof given === "object" && given.id === parent.modelId && given.provider === parent.provider ? given : parent.modelId;
	}

	/** A definition's tools the parent's catalog knows; the others are said once, as a warning. */
	private knownTools(definition: AgentDefinition): string[] {
		const tools = definition.tools ?? [];
		const known = tools.filter((tool) => tool.includes("*") || tool.startsWith("mcp__") || this.setup.knownTool(tool));
		const missing = tools.filter((tool) => !known.includes(tool));
		if (missing.length > 0) this.setup.parent().ui.notify("warning", `${definition.path}: loom has no tool ${missing.join(", ")}; the ${definition.name} agent runs without it.`);
		return known;
	}
}

/** Modes from the loosest; a definition may make its child stricter than the parent, never looser. */
const APPROVAL_STRICTNESS: readonly ApprovalMode[] = ["auto", "ask", "plan", "read-only"];
const SANDBOX_STRICTNESS: readonly SandboxMode[] = ["off", "workspace-write", "read-only"];

function stricter<M extends string>(order: readonly M[], parent: M | undefined, definition: M | undefined): M | undefined {
	if (parent === undefined || definition === undefined) return definition ?? parent;
	return order.indexOf(definition) > order.indexOf(parent) ? definition : parent;
}

function callRow(call: ToolCallState): SubagentCallRow {
	const status = call.status === "done" ? "done" : call.status === "error" || call.status === "blocked" ? "error" : "running";
	return { name: call.name, summary: call.description.summary, status };
}

/**
 * The task tool, listing the definitions the model may name (again when the project's arrive), and `@name` at the
 * start of a prompt handing it to that agent. Nothing at or past the depth limit.
 */
export function installSubagents(session: AgentSession, setup: SubagentsSetup, tools: ToolCatalog): void {
	if (setup.depth === 0) installWorktreeCommands(session);
	const maxDepth = setup.settings.subagents?.maxDepth ?? DEFAULT_MAX_DEPTH;
	if (setup.depth >= maxDepth) return;
	const port = new Subagents(setup);
	const group = tools.group("subagents");
	const listing = () => [
		{ name: GENERAL_AGENT, description: "general-purpose: the session's default tools, for research or a change of several steps" },
		...setup.agents.all.map((agent) => ({ name: agent.name, description: agent.description })),
	];
	const place = () => group.set([createTaskTool(port, listing())]);
	place();
	setup.agents.onChange(place);
	session.runHooks.onPrompt(async (prompt) => {
		const named = /^@(?:agent-)?([A-Za-z0-9_-]+)(?:\s|$)/.exec(prompt.trimStart())?.[1];
		const agent = named === undefined ? undefined : named === GENERAL_AGENT ? GENERAL_AGENT : setup.agents.find(named)?.name;
		if (!agent) return undefined;
		return { context: [`The user handed this request to the ${agent} agent: call the task tool once with agent "${agent}" and the request (without the @${named}) as its prompt, then report its answer.`] };
	});
}

/**
 * How a child session asks and tells the user: through its parent's ui as it is at the moment (the screen installs
 * its own after the assembly), every question and notice carrying the child's agent name, so an approval asked inside
 * a subagent says whose call it is.
 */
function subagentUi(parent: () => SessionUi, agent: string): SessionUi {
	const named = (title: string) => `${agent}: ${title}`;
	return {
		get interactive() {
			return parent().interactive;
		},
		notify: (level, text) => parent().notify(level, named(text)),
		select: (options, choices) => parent().select({ ...options, title: named(options.title) }, choices),
		confirm: (title, message, signal) => parent().confirm(named(title), message, signal),
		input: (title, options) => parent().input(named(title), options),
	};
}
