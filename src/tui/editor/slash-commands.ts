// Slash commands typed into the editor. Parsing is pure; the commands themselves are registry entries: the
// session's (new, model, …) with the screen's own (help, quit) on top. Errors become one readable line.
import {
	errorMessage,
	type CommandContext,
	CommandRegistry,
	hiddenCommandNotice,
	type ResolvedCommand,
} from "../../core/index.js";
import type { SessionPort } from "../session-port.js";

export { resolveCommand } from "../../core/index.js";

export type SlashContext = CommandContext<SessionPort>;
export type ScreenCommands = CommandRegistry<SessionPort>;

export const KEY_HELP: ReadonlyArray<[string, string]> = [
	["Enter", "send; while a run is active, queue as a steering message"],
	["Shift+Enter, Alt+Enter, Ctrl+J", "new line (or end the line with \\)"],
	["Up / Down", "previous / next prompt (this project's earlier sessions and a resumed one included); in a list, move"],
	["Tab", "complete the command, @file or path under the cursor"],
	["Esc", "interrupt the run; queued messages return to the editor; close a list; stop a !command"],
	["Ctrl+C", "interrupt the run (on an empty editor), else clear the editor; twice within 2 s: exit"],
	["Ctrl+D", "exit (on an empty editor)"],
	["Ctrl+T", "show or hide thinking in full, for the whole transcript (printed again)"],
	["Shift+Tab", "next approval mode: auto → ask → read-only → plan (also /approval)"],
	["Ctrl+X", "fold or unfold the todo list shown above the editor during a run"],
	["Ctrl+O", "show the latest tool output, summary, thinking or shell output in full"],
	["Ctrl+G", "edit the prompt in $VISUAL / $EDITOR"],
	["Ctrl+Z", "suspend to the shell (fg comes back)"],
	["Ctrl+L", "redraw the screen"],
	["/ and @", "at the start: the commands; anywhere: the project's files"],
	["!cmd, !!cmd", "run a shell command (!!: its output goes with the next prompt)"],
	["Ctrl+Left / Ctrl+Right, Alt+B / Alt+F", "move by a word"],
	["Home / End, Ctrl+A / Ctrl+E", "to the start / end of the line"],
	["Backspace / Delete", "delete the character before / after the cursor"],
	["Alt+Backspace", "delete the word before the cursor"],
	["Ctrl+W", "delete back to the previous blank"],
	["Ctrl+U / Ctrl+K", "delete to the start / end of the line"],
];

/** Rows "  left  right", the right cells in one column (the screen wraps a right cell under its column). */
function table(rows: ReadonlyArray<[string, string]>, width: number): string {
	return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`).join("\n");
}

function helpText(commands: ScreenCommands): string {
	const rows = commands.list().map((command): [string, string] => [`/${command.name}${command.argsHint ? ` ${command.argsHint}` : ""}`, command.description]);
	const width = Math.max(...[...rows, ...KEY_HELP].map(([left]) => left.length));
	return `Commands:\n${table(rows, width)}\n\nKeys:\n${table(KEY_HELP, width)}`;
}

/** The screen's commands: the session's, with help and quit on top. Add a screen-only command with register(). */
export function screenCommands(session: SessionPort): ScreenCommands {
	const commands: ScreenCommands = new CommandRegistry<SessionPort>(session.commands);
	commands.register({ name: "help", description: "this help", source: "builtin", handler: (_args, ctx) => ctx.notify("info", helpText(commands)) });
	commands.register({ name: "quit", description: "exit", source: "builtin", handler: (_args, ctx) => ctx.exit?.() });
	commands.register({ name: "exit", description: "exit (same as /quit)", source: "builtin", handler: (_args, ctx) => ctx.exit?.() });
	return commands;
}

/** What to tell the user about commands the screen's own hide (a prompt template named "help"). */
export function hiddenCommandNotices(commands: ScreenCommands): string[] {
	return commands.hidden().map((command) => hiddenCommandNotice(command, commands.get(command.name)!));
}

/** Runs a command; an unknown one, or its failure, is reported as an error notice. */
export async function runSlashCommand({ name, args, definition }: ResolvedCommand<SessionPort>, ctx: SlashContext): Promise<void> {
	if (!definition) {
		ctx.notify("error", `Unknown command /${name}. /help lists the commands.`);
		return;
	}
	try {
		await definition.handler(args, ctx);
	} catch (error) {
		ctx.notify("error", errorMessage(error));
	}
}
