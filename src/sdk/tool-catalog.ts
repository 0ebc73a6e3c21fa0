// The tools a session may use (the built-ins, tools given as definitions, tools extensions register) and which
// of them are enabled: when the options name none, the default built-ins and every other tool; otherwise the named
// ones and the given definitions.
import type { AgentSession } from "../core/session/index.js";
import type { ToolDefinition } from "../core/tool-definition.js";
import { SessionOptionError } from "./session-option-error.js";

/** `tools` of createAgentSession: names of tools loom knows (built-in or from an extension), or definitions. */
export type ToolChoice = readonly (string | ToolDefinition<any>)[];

export class ToolCatalog {
	private readonly known: ToolDefinition<any>[];
	private readonly names: ReadonlySet<string> | undefined;
	/** Built-ins known but not enabled unless named (the search tools). */
	private readonly offByDefault: ReadonlySet<ToolDefinition<any>>;
	private session: AgentSession | undefined;

	/** `builtins`: every built-in tool, in order; `defaults`: those enabled when `choice` names none. */
	constructor(builtins: readonly ToolDefinition<any>[], choice: ToolChoice | undefined, defaults: readonly ToolDefinition<any>[] = builtins) {
		const given = (choice ?? []).filter((entry): entry is ToolDefinition<any> => typeof entry !== "string");
		this.known = [...builtins.filter((tool) => !given.some((other) => other.name === tool.name)), ...given];
		this.offByDefault = new Set(builtins.filter((tool) => !defaults.includes(tool)));
		this.names = choice && new Set(choice.map((entry) => (typeof entry === "string" ? entry : entry.name)));
	}

	/** Every tool that can be enabled, built-ins first. */
	get all(): readonly ToolDefinition<any>[] {
		return this.known;
	}

	/** The enabled tools, in the catalog's order. */
	enabled(): ToolDefinition<any>[] {
		const { names } = this;
		return names ? this.known.filter((tool) => names.has(tool.name)) : this.known.filter((tool) => !this.offByDefault.has(tool));
	}

	/** Throws a SessionOptionError naming the tools chosen by name that nobody provides. */
	checkChoice(): void {
		const unknown = [...(this.names ?? [])].filter((name) => !this.known.some((tool) => tool.name === name));
		if (unknown.length > 0) {
			throw new SessionOptionError("tools", `unknown tool ${unknown.join(", ")}; choose from ${this.known.map((tool) => tool.name).join(",")}.`);
		}
	}

	/** From now on, every change is applied to the session's tools (and its system prompt). */
	attach(session: AgentSession): void {
		this.session = session;
		this.apply();
	}

	/** An extension's tool; enabled unless the options chose tools by name without it. Throws on a taken name. */
	addTool(tool: ToolDefinition<any>, owner: string): () => void {
		if (this.known.some((other) => other.name === tool.name)) {
			throw new Error(`A tool named ${tool.name} exists already; ${owner} must give its tool another name.`);
		}
		this.known.push(tool);
		this.apply();
		return () => {
			const index = this.known.indexOf(tool);
			if (index === -1) return;
			this.known.splice(index, 1);
			this.apply();
		};
	}

	private apply(): void {
		this.session?.setTools(this.enabled());
	}
}
