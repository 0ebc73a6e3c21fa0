// Door of the slash commands: the registry every interface resolves commands through, and the session's own.
export {
	COMMAND_NAME,
	CommandRegistry,
	busyRefusal,
	hiddenCommandNotice,
	parseSlashCommand,
	resolveCommand,
	type CommandContext,
	type CommandDefinition,
	type CommandLookup,
	type CommandScope,
	type ResolvedCommand,
	type SlashCommand,
} from "./command-registry.js";
export {
	registerSessionCommands,
	sessionChoice,
	subagentsText,
	type CommandSession,
	type SessionSummary,
} from "./session-commands.js";
