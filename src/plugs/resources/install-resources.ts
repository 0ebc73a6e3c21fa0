// The user's skills and prompt templates, installed into a session in one call from its assembly: skills go
// into the system prompt (while the read tool is enabled) and become /skill:<name> commands, templates become
// /<name> commands. Problems (a bad front matter) become the session's load warnings; a command of a name another
// command has is ranked against it by the session's registry (the project's rank below the user's).
import { homedir } from "node:os";
import { oneLine } from "../../core/index.js";
import type { AgentSession, CommandContext, CommandDefinition, CommandSession } from "../../core/index.js";
import { type PromptTemplate, loadPromptTemplates, templatePrompt } from "./prompt-templates.js";
import { promptDirs, type ResourceLocations, resourceScope, skillDirs, skippedProblem } from "./resource-dirs.js";
import { loadSkills, type Skill, skillPrompt } from "./skills.js";

/** A skill's description in /help, cut to one short line (the system prompt has all of it). */
const HELP_DESCRIPTION = 120;

export interface ResourceOptions {
	cwd: string;
	/** loom's home. */
	home: string;
	/** Where ~/.claude is looked for (default: the user's home directory). */
	userHome?: string;
}

export interface InstalledResources {
	skills: Skill[];
	templates: PromptTemplate[];
}

/** Loads skills and templates from their folders and installs them into `session`. */
export async function installResources(session: AgentSession, options: ResourceOptions): Promise<InstalledResources> {
	const locations: ResourceLocations = { cwd: options.cwd, home: options.home, userHome: options.userHome ?? homedir() };
	const [skills, templates] = await Promise.all([loadSkills(skillDirs(locations)), loadPromptTemplates(promptDirs(locations))]);
	const problems = [...skills.problems, ...templates.problems];
	const installed: InstalledResources = { skills: [], templates: [] };
	for (const skill of skills.skills) {
		const problem = tryRegister(session, { ...skillCommand(skill), scope: resourceScope(skill.path, locations) });
		if (problem) problems.push(problem);
		else installed.skills.push(skill);
	}
	for (const template of templates.templates) {
		const problem = tryRegister(session, { ...templateCommand(template), scope: resourceScope(template.path, locations) });
		if (problem) problems.push(problem);
		else installed.templates.push(template);
	}
	if (installed.skills.length > 0) session.setPromptParts({ skills: installed.skills });
	for (const problem of problems) session.addLoadWarning(problem);
	return installed;
}

function tryRegister(session: AgentSession, command: CommandDefinition<CommandSession>): string | undefined {
	try {
		session.commands.register(command);
		return undefined;
	} catch (error) {
		return skippedProblem(command.origin ?? command.name, error, command.source === "skill" ? "skill" : "prompt template");
	}
}

function skillCommand(skill: Skill): CommandDefinition<CommandSession> {
	const expand = (args: string) => skillPrompt(skill, args);
	return {
		name: `skill:${skill.name}`,
		description: oneLine(skill.description, HELP_DESCRIPTION),
		argsHint: "[request]",
		source: "skill",
		origin: skill.path,
		expand,
		handler: async (args, ctx) => send(await expand(args), ctx),
	};
}

function templateCommand(template: PromptTemplate): CommandDefinition<CommandSession> {
	const expand = (args: string) => templatePrompt(template, args);
	return {
		name: template.name,
		description: template.description,
		argsHint: template.argsHint,
		source: "prompt",
		origin: template.path,
		expand,
		handler: async (args, ctx) => send(await expand(args), ctx),
	};
}

/** As typed text is sent: a prompt when idle, a steering message into the run going on. */
async function send(text: string, ctx: CommandContext<CommandSession>): Promise<void> {
	if (ctx.busy) await ctx.session.steer(text);
	else await ctx.session.prompt(text);
}
