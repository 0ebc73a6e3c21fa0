// The session's slash commands as ACP's: offered to the editor (available_commands_update) and run when a
// prompt is "/name args". /new and /resume are left out: the editor opens and loads sessions itself, and a
// command must not swap the conversation under the editor's thread.
import type { AvailableCommand } from "@agentclientprotocol/sdk";
import { type AgentSession, type CommandDefinition, type CommandSession, parseSlashCommand } from "../core/session/index.js";

const EDITOR_OWNS: ReadonlySet<string> = new Set(["new", "resume"]);

export function availableCommands(session: AgentSession): AvailableCommand[] {
	return session.commands
		.list()
		.filter((command) => !EDITOR_OWNS.has(command.name))
		.map((command) => ({ name: command.name, description: command.description, ...(command.argsHint ? { input: { hint: command.argsHint } } : {}) }));
}

/** The command a prompt's text runs, when it is "/name …" naming one offered to the editor. */
export function promptCommand(session: AgentSession, text: string): { definition: CommandDefinition<CommandSession>; args: string } | undefined {
	const typed = parseSlashCommand(text);
	if (!typed || EDITOR_OWNS.has(typed.name)) return undefined;
	const definition = session.commands.get(typed.name);
	return definition ? { definition, args: typed.args } : undefined;
}
