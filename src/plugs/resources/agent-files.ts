// Agent definitions: Markdown files whose YAML front matter names and describes an agent (its tools, model,
// approval and sandbox modes, whether it works in a worktree of its own) and whose body is its instructions. Read
// from ~/.loom/agents, ~/.claude/agents (the user's) and .loom/agents, .claude/agents (the project's), in that
// order; the first of a name wins. Claude Code's files are read as they are: `tools: Read, Grep, Glob, Bash` names
// Claude Code's tools, mapped here onto loom's; a tool loom does not have is left out with a warning.
import { basename, join } from "node:path";
import { APPROVAL_MODES, SANDBOX_MODES, type ApprovalMode, type SandboxMode, entryExists } from "../../core/index.js";
import { FrontMatterError, parseFrontMatter, stringField } from "./front-matter.js";
import { folderEntries, readResource, type ResourceLocations, skippedProblem } from "./resource-dirs.js";

export interface AgentDefinition {
	name: string;
	description: string;
	/** loom's tool names (or patterns); undefined: the tools a session has by default. */
	tools?: string[];
	/** A model ("provider/id", an id); undefined or "inherit": the parent's. */
	model?: string;
	approval?: ApprovalMode;
	sandbox?: SandboxMode;
	/** "worktree": it works in a git worktree of its own. */
	isolation?: "worktree";
	/** Its instructions (the file's body), added to the system prompt. */
	prompt: string;
	path: string;
	scope: "user" | "project";
}

export interface LoadedAgents {
	agents: AgentDefinition[];
	/** One line per file skipped or field left out, naming the file and what to fix. */
	problems: string[];
}

/** Claude Code's tool names and the loom tools they stand for. */
const CLAUDE_TOOLS: Readonly<Record<string, readonly string[]>> = {
	Read: ["read"],
	Write: ["write"],
	Edit: ["edit"],
	MultiEdit: ["edit"],
	Bash: ["bash", "bash_output", "bash_kill"],
	BashOutput: ["bash_output"],
	KillBash: ["bash_kill"],
	KillShell: ["bash_kill"],
	Grep: ["grep"],
	Glob: ["find"],
	LS: ["ls"],
	WebFetch: ["web_fetch"],
	WebSearch: ["web_search"],
	TodoWrite: ["todo_write"],
	Task: ["task"],
	AskUserQuestion: ["ask_user"],
};

const NAME = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/i;
const MAX_DESCRIPTION = 2048;

/** The user's folders, then the project's (read only once the project is trusted: see `project`). */
export function agentDirs({ cwd, home, userHome }: ResourceLocations): { user: string[]; project: string[] } {
	return { user: [join(home, "agents"), join(userHome, ".claude", "agents")], project: [join(cwd, ".loom", "agents"), join(cwd, ".claude", "agents")] };
}

/** The Markdown files of these folders, in order. */
export function agentFiles(dirs: readonly string[]): string[] {
	return dirs.flatMap((dir) => folderEntries(dir).filter((entry) => entry.endsWith(".md")).map((entry) => join(dir, entry))).filter(entryExists);
}

/** Loads the definitions of `files` (scope as given); `known`: names loaded before, which win. */
export async function loadAgents(files: readonly string[], scope: AgentDefinition["scope"], known: readonly AgentDefinition[] = []): Promise<LoadedAgents> {
	const agents: AgentDefinition[] = [];
	const problems: string[] = [];
	for (const path of files) {
		try {
			const { agent, warnings } = await readAgent(path, scope);
			const first = [...known, ...agents].find((other) => other.name === agent.name);
			if (first) throw new FrontMatterError(`an agent named "${agent.name}" is already loaded from ${first.path}`);
			agents.push(agent);
			problems.push(...warnings.map((warning) => `${path}: ${warning}.`));
		} catch (error) {
			problems.push(skippedProblem(path, error, "agent"));
		}
	}
	return { agents, problems };
}

async function readAgent(path: string, scope: AgentDefinition["scope"]): Promise<{ agent: AgentDefinition; warnings: string[] }> {
	const { data, body } = await parseFrontMatter(readResource(path));
	const name = stringField(data, "name") ?? basename(path, ".md");
	const description = stringField(data, "description");
	if (!NAME.test(name)) throw new FrontMatterError(`the name "${name}" must be letters, digits and single hyphens or underscores`);
	if (!description) throw new FrontMatterError('its front matter has no "description" (what the agent does and when to use it)');
	if (description.length > MAX_DESCRIPTION) throw new FrontMatterError(`the description is over ${MAX_DESCRIPTION} characters`);
	const warnings: string[] = [];
	const tools = toolList(data.tools, warnings);
	const model = stringField(data, "model");
	const agent: AgentDefinition = {
		name,
		description: description.replace(/\s+/g, " "),
		...(tools ? { tools } : {}),
		...(model && model !== "inherit" ? { model } : {}),
		...oneOf(data, "approval", APPROVAL_MODES),
		...oneOf(data, "sandbox", SANDBOX_MODES),
		...oneOf(data, "isolation", ["worktree"] as const),
		prompt: body.trim(),
		path,
		scope,
	};
	return { agent, warnings };
}

/** A field that must be one of `values` when present. */
function oneOf<K extends string, V extends string>(data: Record<string, unknown>, key: K, values: readonly V[]): Partial<Record<K, V>> {
	const value = stringField(data, key);
	if (value === undefined) return {};
	if (!(values as readonly string[]).includes(value)) throw new FrontMatterError(`"${key}" must be one of ${values.join(", ")}, not "${value}"`);
	return { [key]: value } as Partial<Record<K, V>>;
}

/**
 * `tools` as Claude Code writes it ("Read, Grep, Glob" or a YAML list), each name mapped onto loom's; loom's own
 * names and MCP tools (`mcp__server__tool`) pass as they are. Undefined: the field is absent (the default tools).
 */
export function toolList(value: unknown, warnings: string[]): string[] | undefined {
	if (value === undefined || value === null) return undefined;
	const names = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value.map(String) : undefined;
	if (!names) throw new FrontMatterError('"tools" must be a comma-separated list or a YAML list of tool names');
	const tools: string[] = [];
	const unknown: string[] = [];
	for (const raw of names.map((name) => name.trim()).filter((name) => name !== "")) {
		// Claude Code's "Bash(git:*)" limits a tool to some calls: loom's approval rules do that; the tool is enabled.
		const name = raw.replace(/\(.*\)$/, "");
		const mapped = CLAUDE_TOOLS[name] ?? (/^[a-z][a-z0-9_]*$/.test(name) || name.startsWith("mcp__") ? [name] : undefined);
		if (mapped) tools.push(...mapped.filter((tool) => !tools.includes(tool)));
		else unknown.push(raw);
	}
	if (unknown.length > 0) warnings.push(`loom has no tool ${unknown.join(", ")}; the agent runs without ${unknown.length === 1 ? "it" : "them"}`);
	return tools;
}
