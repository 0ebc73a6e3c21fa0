// Slash commands as data: each command is one definition registered by whoever offers it (the session's
// built-ins, the screen, later extensions, prompt templates and skills). Whoever runs commands (the screen,
// RPC) looks them up here; nobody keeps a closed list.

import type { SessionUi } from "./session-ui.js";

export type CommandSource = "builtin" | "extension" | "prompt" | "skill";
export type NoticeLevel = "info" | "warning" | "error";

/** What a command is given when it runs; `S` is the session as the caller knows it. */
export interface CommandContext<S> {
	session: S;
	/** Tells the user something (the screen shows a notice). */
	notify(level: NoticeLevel, text: string): void;
	/** A prompt's run is going on: commands that replace the conversation must wait. */
	busy: boolean;
	/** Ends the program, where there is one to end (the screen). */
	exit?(): void;
	/** Asks the user (pickers, confirmations, text); absent or non-interactive where nobody can answer. */
	ui?: SessionUi;
	/** Puts text in the prompt editor, where there is one (a rewound prompt, to edit and send again). */
	setEditorText?(text: string): void;
}

export interface CommandDefinition<S> {
	/**
	 * Typed after the slash: lowercase letters, digits and dashes, starting with a letter; optionally one
	 * namespace before a colon ("skill:review").
	 */
	name: string;
	/** One line for /help. */
	description: string;
	/** The arguments as /help shows them, e.g. "<id>" or "[instructions]". */
	argsHint?: string;
	source?: CommandSource;
	/** Where the command was defined (a prompt template's or skill's file), for messages about it. */
	origin?: string;
	/** `args`: everything after the name, trimmed. Throwing reports the error's message to the user. */
	handler(args: string, ctx: CommandContext<S>): void | Promise<void>;
}

/** Looking commands up, which a layered registry asks of the one below it. */
export interface CommandLookup<S> {
	get(name: string): CommandDefinition<S> | undefined;
	list(): CommandDefinition<S>[];
}

/** A command's name as typed after the slash (the editor parses commands with it too). */
export const COMMAND_NAME = "[a-z][a-z0-9-]*(?::[a-z0-9][a-z0-9-]*)?";
const NAME = new RegExp(`^${COMMAND_NAME}$`);
const SLASH_COMMAND = new RegExp(`^/(${COMMAND_NAME})(?:\\s+([\\s\\S]*))?$`);

/** A command as typed: "/name args". */
export interface SlashCommand {
	name: string;
	/** Everything after the name, trimmed. */
	args: string;
}

/** A command is "/name" at the very start; "/etc/hosts …" and other paths are prompts. */
export function parseSlashCommand(text: string): SlashCommand | undefined {
	const match = SLASH_COMMAND.exec(text.trim());
	if (!match) return undefined;
	return { name: match[1]!, args: (match[2] ?? "").trim() };
}

/** True (and says why) when a run is going on; for commands that replace the conversation. */
export function refusedWhileBusy(ctx: CommandContext<unknown>, what: string): boolean {
	if (!ctx.busy) return false;
	ctx.notify("error", `Cannot ${what} while a run is active. Press Esc to interrupt it first.`);
	return true;
}

/**
 * Commands by name. A registry may sit on top of another (the screen's own commands over the session's): it
 * finds and lists both, its own after those below, and a name may be registered only once across the layers,
 * with one exception: built-ins win, so a built-in registered above hides a prompt template, skill or
 * extension command of the same name below (`hidden()` lists those, for the interface to report).
 */
export class CommandRegistry<S> implements CommandLookup<S> {
	private readonly commands = new Map<string, CommandDefinition<S>>();

	constructor(private readonly below?: CommandLookup<S>) {}

	/** Adds a command; returns the function that removes it. Throws on a malformed or taken name. */
	register(definition: CommandDefinition<S>): () => void {
		const { name } = definition;
		if (!NAME.test(name)) {
			throw new Error(`Invalid command name "${name}": use lowercase letters, digits and dashes, starting with a letter.`);
		}
		const taken = this.get(name);
		if (taken && !(definition.source === "builtin" && taken.source !== "builtin" && !this.commands.has(name))) {
			throw new Error(`The command /${name} is already registered${taken.source ? ` (${taken.source})` : ""}.`);
		}
		this.commands.set(name, definition);
		return () => {
			if (this.commands.get(name) === definition) this.commands.delete(name);
		};
	}

	get(name: string): CommandDefinition<S> | undefined {
		return this.commands.get(name) ?? this.below?.get(name);
	}

	/** Every command that can run, those below first, each in the order it was registered. */
	list(): CommandDefinition<S>[] {
		const below = (this.below?.list() ?? []).filter((command) => !this.commands.has(command.name));
		return [...below, ...this.commands.values()];
	}

	/** Commands below that this layer's built-ins hide. */
	hidden(): CommandDefinition<S>[] {
		return (this.below?.list() ?? []).filter((command) => this.commands.has(command.name));
	}
}
