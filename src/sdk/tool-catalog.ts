// The tools a session may use (the built-ins, tools given as definitions, tools extensions and MCP servers add)
// and which of them are enabled: when the options name none, the default built-ins and every other tool;
// otherwise the tools the names and patterns (`*` any characters) match, and the given definitions.
import type { AgentSession, ToolDefinition } from "../core/index.js";
import { matchesToolPattern } from "../core/index.js";
import type { AskUserInput, BashToolInput, EditToolInput, FindToolInput, GrepToolInput, LsToolInput, LspToolInput, ReadToolInput, TodoWriteInput, WriteToolInput } from "../tools/index.js";
import { SessionOptionError } from "./session-option-error.js";

// The built-in tools' inputs, as extension handlers see them once they check `event.toolName`.
declare module "../plugs/extensions/extension-api.js" {
	interface KnownToolInputs {
		read: ReadToolInput;
		bash: BashToolInput;
		edit: EditToolInput;
		write: WriteToolInput;
		grep: GrepToolInput;
		find: FindToolInput;
		ls: LsToolInput;
		ask_user: AskUserInput;
		todo_write: TodoWriteInput;
		lsp: LspToolInput;
	}
}

/** `tools` of createAgentSession: names (or `*` patterns) of tools loom knows, or definitions. */
export type ToolChoice = readonly (string | ToolDefinition<any>)[];

/** Tools still to come (a server's, once it has started), which a chosen name may already name. */
export interface ExpectedTools {
	/** Whether a chosen name or pattern may name one of them. */
	accepts(pattern: string): boolean;
	/** What they are, added to the list of known tools when a chosen name names nothing (", or …"). */
	hint: string;
}

/** Tools that change as a whole (an MCP server's, as servers start, restart and change their lists). */
export interface ToolGroup {
	/** Replaces the group's tools; throws when a name is another tool's. */
	set(tools: readonly ToolDefinition<any>[]): void;
	remove(): void;
}

export class ToolCatalog {
	/** The built-ins and the given definitions, in order. */
	private readonly base: ToolDefinition<any>[];
	/** Added tools, group by group in the order the groups were made. */
	private groups: { tools: readonly ToolDefinition<any>[]; always: boolean }[] = [];
	private readonly patterns: readonly string[] | undefined;
	/** Built-ins known but not enabled unless named (the search tools). */
	private readonly offByDefault: ReadonlySet<ToolDefinition<any>>;
	private readonly expected: ExpectedTools[] = [];
	private session: AgentSession | undefined;

	/** `builtins`: every built-in tool, in order; `defaults`: those enabled when `choice` names none. */
	constructor(builtins: readonly ToolDefinition<any>[], choice: ToolChoice | undefined, defaults: readonly ToolDefinition<any>[] = builtins) {
		const given = (choice ?? []).filter((entry): entry is ToolDefinition<any> => typeof entry !== "string");
		this.base = [...builtins.filter((tool) => !given.some((other) => other.name === tool.name)), ...given];
		this.offByDefault = new Set(builtins.filter((tool) => !defaults.includes(tool)));
		this.patterns = choice?.map((entry) => (typeof entry === "string" ? entry : entry.name));
	}

	/** Every tool that can be enabled, built-ins first. */
	get all(): readonly ToolDefinition<any>[] {
		return [...this.base, ...this.groups.flatMap((group) => group.tools)];
	}

	/** The names and patterns the options chose tools by; undefined when they chose none. */
	get chosen(): readonly string[] | undefined {
		return this.patterns;
	}

	/** The enabled tools, in the catalog's order. */
	enabled(): ToolDefinition<any>[] {
		const always = new Set(this.groups.filter((group) => group.always).flatMap((group) => group.tools));
		return this.all.filter((tool) => always.has(tool) || (this.patterns ? this.allows(tool.name) : !this.offByDefault.has(tool)));
	}

	/** Whether the choice enables a tool so named that is not a built-in (every such tool when it chose none). */
	allows(name: string): boolean {
		return this.patterns === undefined || this.patterns.some((pattern) => matchesToolPattern(pattern, name));
	}

	/** Chosen names that `expected` may name are not unknown while its tools are still to come. */
	expectTools(expected: ExpectedTools): void {
		this.expected.push(expected);
	}

	/** Throws a SessionOptionError naming the tools chosen by name that nobody provides or is expected to. */
	checkChoice(): void {
		const all = this.all;
		const unknown = (this.patterns ?? []).filter(
			(pattern) => !all.some((tool) => matchesToolPattern(pattern, tool.name)) && !this.expected.some((expected) => expected.accepts(pattern)),
		);
		if (unknown.length > 0) {
			const hints = this.expected.map((expected) => `, or ${expected.hint}`).join("");
			throw new SessionOptionError("tools", `unknown tool ${unknown.join(", ")}; choose from ${all.map((tool) => tool.name).join(",")}${hints}.`);
		}
	}

	/** From now on, every change is applied to the session's tools (and its system prompt). */
	attach(session: AgentSession): void {
		this.session = session;
		this.apply();
	}

	/** An extension's tool; enabled unless the options chose tools without it. Throws on a taken name. */
	addTool(tool: ToolDefinition<any>, owner: string): () => void {
		const group = this.group(owner);
		try {
			group.set([tool]);
		} catch (error) {
			group.remove();
			throw error;
		}
		return () => group.remove();
	}

	/**
	 * A group of tools, empty until set, placed after the tools added so far. `always`: enabled whatever the
	 * options chose (a mode's own tool, such as plan mode's present_plan, which the mode adds and takes away).
	 */
	group(owner: string, options: { always?: boolean } = {}): ToolGroup {
		const entry: { tools: readonly ToolDefinition<any>[]; always: boolean } = { tools: [], always: options.always === true };
		this.groups.push(entry);
		return {
			set: (tools) => {
				if (!this.groups.includes(entry)) return;
				const others = new Set(this.all.filter((tool) => !entry.tools.includes(tool)).map((tool) => tool.name));
				const names = tools.map((tool) => tool.name);
				const taken = names.find((name, index) => others.has(name) || names.indexOf(name) !== index);
				if (taken !== undefined) throw new Error(`A tool named ${taken} exists already; ${owner} must give its tool another name.`);
				entry.tools = [...tools];
				this.apply();
			},
			remove: () => {
				const before = this.groups.length;
				this.groups = this.groups.filter((other) => other !== entry);
				if (this.groups.length !== before && entry.tools.length > 0) this.apply();
			},
		};
	}

	private apply(): void {
		this.session?.setTools(this.enabled());
	}
}
