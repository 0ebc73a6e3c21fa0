// loom's default system prompt, plus the user's additions and the project's context files.
import type { ContextFile } from "./context-files.js";

/** One line per built-in tool; other tools are described by the first sentence of their description. */
const TOOL_GUIDES: Record<string, string> = {
	read: "read a file (text or image); use offset/limit to page through long files",
	bash: "run a shell command in the working directory: search (rg, grep, find, ls), build, test, git",
	edit: "replace exact text in an existing file; each oldText must match once; several edits per call",
	write: "create a file or replace a whole file; creates parent directories",
};

export interface PromptTool {
	name: string;
	description: string;
}

export interface SystemPromptOptions {
	/** Enabled tools, in the order the model gets them. */
	tools: readonly PromptTool[];
	cwd: string;
	date?: Date;
	/** Replaces loom's default prompt (--system-prompt). */
	customPrompt?: string;
	/** Added after the prompt (--append-system-prompt). */
	appendPrompt?: string;
	contextFiles?: readonly ContextFile[];
}

export function buildSystemPrompt(options: SystemPromptOptions): string {
	const parts = [options.customPrompt?.trim() || defaultPrompt(options.tools)];
	if (options.appendPrompt?.trim()) parts.push(options.appendPrompt.trim());
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
	parts.push(`Working directory: ${options.cwd}\nToday's date: ${isoDate(options.date ?? new Date())}`);
	return parts.join("\n\n");
}

function defaultPrompt(tools: readonly PromptTool[]): string {
	const names = new Set(tools.map((tool) => tool.name));
	const lines = [
		"You are loom, a coding agent working in the user's terminal. You help with software tasks in the user's project: you read code, run commands, change files, and explain what you did.",
	];
	if (tools.length === 0) {
		lines.push("", "No tools are enabled in this session: answer from the conversation alone, and say so when you would need to look at files.");
	} else {
		lines.push("", "Tools:", ...tools.map((tool) => `- ${tool.name}: ${TOOL_GUIDES[tool.name] ?? firstSentence(tool.description)}`));
	}
	lines.push("", "Rules:");
	if (names.has("read") && (names.has("edit") || names.has("write"))) lines.push("- Read a file before you change it.");
	if (names.has("edit")) lines.push("- Prefer edit for changes to existing files; rewrite a whole file only when most of it changes.");
	if (names.has("bash")) lines.push("- Use bash to search and to run builds and tests; do not use it to edit files when edit or write can.");
	lines.push(
		"- Do what was asked, no more; ask when the request is ambiguous in a way that matters.",
		"- Keep answers short and concrete: name files and paths, do not paste back whole files, summarise what changed in a sentence or two.",
	);
	return lines.join("\n");
}

function firstSentence(text: string): string {
	const line = text.trim().split("\n")[0] ?? "";
	const end = line.search(/\.(\s|$)/);
	return end === -1 ? line : line.slice(0, end);
}

function isoDate(date: Date): string {
	return date.toISOString().slice(0, 10);
}
