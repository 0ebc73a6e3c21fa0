// loom's default system prompt, plus the user's additions and the project's context files. The tool list and
// the rules come from the enabled tools' definitions, so a tool added or removed changes them.
import { type ToolDefinition, toolPromptGuide } from "../../engine/index.js";
import type { ContextFile } from "./context-files.js";

/** What the prompt takes from a tool's definition. */
export type PromptTool = Pick<ToolDefinition, "name" | "description" | "promptGuide" | "promptRules" | "readsFiles">;

/** A skill as the prompt lists it: the model reads its file with a tool that reads files when a task calls for it. */
export interface PromptSkill {
	name: string;
	description: string;
	/** Its SKILL.md. */
	path: string;
}

/** What the prompt is built from besides the tools: a session keeps these to rebuild it when its tools change. */
export interface PromptParts {
	cwd: string;
	/** Default: today, at each build. */
	date?: Date;
	/** Replaces loom's default prompt (--system-prompt). */
	customPrompt?: string;
	/** Added after the prompt (--append-system-prompt). */
	appendPrompt?: string;
	/** What the approval mode tells the model while it holds (plan mode: it is planning), after appendPrompt. */
	modeNote?: string;
	contextFiles?: readonly ContextFile[];
	/** Listed (name, description, file) only while a tool that reads files is enabled: reading the file is how a skill is used. */
	skills?: readonly PromptSkill[];
}

export interface SystemPromptOptions extends PromptParts {
	/** Enabled tools, in the order the model gets them. */
	tools: readonly PromptTool[];
}

export function buildSystemPrompt(options: SystemPromptOptions): string {
	const parts = [options.customPrompt?.trim() || defaultPrompt(options.tools)];
	if (options.appendPrompt?.trim()) parts.push(options.appendPrompt.trim());
	if (options.modeNote?.trim()) parts.push(options.modeNote.trim());
	const contextFiles = options.contextFiles ?? [];
	if (contextFiles.length > 0) {
		parts.push(
			[
				"# Project context",
				"Instructions from the user's context files, general first, most specific last (later ones take precedence):",
				...contextFiles.map((file) => `## ${file.path}\n\n${file.content.trim()}`),
			].join("\n\n"),
		);
	}
	const skills = options.skills ?? [];
	const reader = options.tools.find((tool) => tool.readsFiles);
	if (skills.length > 0 && reader) parts.push(skillsSection(skills, reader.name));
	parts.push(`Working directory: ${options.cwd}\nToday's date: ${isoDate(options.date ?? new Date())}`);
	return parts.join("\n\n");
}

function defaultPrompt(tools: readonly PromptTool[]): string {
	const lines = [
		"You are loom, a coding agent working in the user's terminal. You help with software tasks in the user's project: you read code, run commands, change files, and explain what you did.",
	];
	if (tools.length === 0) {
		lines.push("", "No tools are enabled in this session: answer from the conversation alone, and say so when you would need to look at files.");
	} else {
		lines.push("", "Tools:", ...tools.map((tool) => `- ${tool.name}: ${toolPromptGuide(tool)}`));
	}
	const toolRules = new Set(tools.flatMap((tool) => tool.promptRules ?? []));
	lines.push("", "Rules:", ...[...toolRules].map((rule) => `- ${rule}`));
	lines.push(
		"- Do what was asked, no more; ask when the request is ambiguous in a way that matters.",
		"- Keep answers short and concrete: name files and paths, do not paste back whole files, summarise what changed in a sentence or two.",
	);
	return lines.join("\n");
}

/**
 * The skills as the Agent Skills format suggests announcing them: name, description and location, in XML.
 * `reader`: the enabled tool that reads files, which the model is told to read a skill's file with.
 */
function skillsSection(skills: readonly PromptSkill[], reader: string): string {
	const entries = skills.map((skill) =>
		["  <skill>", `    <name>${xml(skill.name)}</name>`, `    <description>${xml(skill.description)}</description>`, `    <location>${xml(skill.path)}</location>`, "  </skill>"].join("\n"),
	);
	return [
		"# Skills",
		`Skills are instructions for particular tasks, each in a SKILL.md file. When a task matches a skill's description, read its file with the ${reader} tool first and follow it; paths in a skill are relative to the folder of its SKILL.md.`,
		["<available_skills>", ...entries, "</available_skills>"].join("\n"),
	].join("\n\n");
}

function xml(text: string): string {
	return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function isoDate(date: Date): string {
	return date.toISOString().slice(0, 10);
}
