// Door of core/session/commands.
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
	type CommandSession,
	type SessionSummary,
} from "./session-commands.js";
