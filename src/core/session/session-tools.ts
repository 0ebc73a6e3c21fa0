// A session's tools: the definitions enabled now (with the user's per-tool settings applied), every definition
// the session has met (a resumed conversation may hold calls of tools since disabled), and the system prompt
// built from them.
import type { ToolExecutionMode, ToolDefinition } from "../engine/index.js";
import { buildSystemPrompt, type PromptParts } from "./prompt/index.js";

/** settings.json's `tools.<name>`. */
export interface ToolSettings {
	/** Replaces the definition's executionMode ("sequential": a batch holding a call of it runs one call at a time). */
	executionMode?: ToolExecutionMode;
}

export interface SessionToolsOptions {
	tools?: readonly ToolDefinition[];
	knownTools?: readonly ToolDefinition[];
	toolSettings?: Readonly<Record<string, ToolSettings | undefined>>;
	/** Built with the current tools when `systemPrompt` is not given. */
	prompt: PromptParts;
	/** A finished prompt, used as is whatever the tools. */
	systemPrompt?: string;
}

export class SessionTools {
	private enabled: readonly ToolDefinition[] = [];
	private readonly met = new Map<string, ToolDefinition>();
	private prompt: PromptParts;

	constructor(private readonly options: SessionToolsOptions) {
		this.prompt = options.prompt;
		for (const tool of options.knownTools ?? []) this.met.set(tool.name, tool);
		this.set(options.tools ?? []);
	}

	/** The enabled tools, in the order the model gets them. */
	get definitions(): readonly ToolDefinition[] {
		return this.enabled;
	}

	/** Every tool enabled now, earlier, or declared known; the latest definition under each name. */
	get known(): readonly ToolDefinition[] {
		return [...this.met.values()];
	}

	/** Replaces the enabled tools; throws when two share a name (the model could not tell them apart). */
	set(tools: readonly ToolDefinition[]): void {
		const names = tools.map((tool) => tool.name);
		const repeated = names.filter((name, index) => names.indexOf(name) !== index);
		if (repeated.length > 0) throw new Error(`Two tools are named ${repeated[0]}: each tool needs its own name.`);
		this.enabled = tools.map((tool) => withSettings(tool, this.options.toolSettings?.[tool.name]));
		for (const tool of this.enabled) this.met.set(tool.name, tool);
	}

	/** Changes what the prompt says besides the tools (the working directory stays). */
	setPromptParts(parts: Partial<Omit<PromptParts, "cwd">>): void {
		this.prompt = { ...this.prompt, ...parts, cwd: this.prompt.cwd };
	}

	systemPrompt(): string {
		return this.options.systemPrompt ?? buildSystemPrompt({ ...this.prompt, tools: this.enabled });
	}
}

function withSettings(tool: ToolDefinition, settings: ToolSettings | undefined): ToolDefinition {
	const mode = settings?.executionMode;
	// Definitions are plain objects (like every AgentTool), so a copy keeps all their parts.
	return mode === undefined || mode === tool.executionMode ? tool : { ...tool, executionMode: mode };
}
