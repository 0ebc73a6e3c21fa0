// The session's slash commands as ACP's: offered to the editor (available_commands_update) and run when a
// prompt is "/name args". Those that replace or move the conversation are left out: the editor opens, loads and
// shows the thread itself, and a command must not swap the conversation under it (nor its session id).
import type { AvailableCommand } from "@agentclientprotocol/sdk";
import { type AgentSession, type CommandDefinition, type CommandSession, resolveCommand } from "../../core/index.js";

const EDITOR_OWNS: ReadonlySet<string> = new Set(["new", "resume", "fork", "tree", "rewind"]);

export function availableCommands(session: AgentSession): AvailableCommand[] {
	return session.commands
		.list()
		.filter((command) => !EDITOR_OWNS.has(command.name))
		.map((command) => ({ name: command.name, description: command.description, ...(command.argsHint ? { input: { hint: command.argsHint } } : {}) }));
}

/** The command a prompt's text runs, when it is "/name …" naming one offered to the editor. */
export function promptCommand(session: AgentSession, text: string): { definition: CommandDefinition<CommandSession>; args: string } | undefined {
	const typed = resolveCommand(text, session.commands);
	if (!typed?.definition || EDITOR_OWNS.has(typed.name)) return undefined;
	return { definition: typed.definition, args: typed.args };
}
