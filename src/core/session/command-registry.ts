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
}

export interface CommandDefinition<S> {
	/** Typed after the slash: lowercase letters and dashes, starting with a letter. */
	name: string;
	/** One line for /help. */
	description: string;
	/** The arguments as /help shows them, e.g. "<id>" or "[instructions]". */
	argsHint?: string;
	source?: CommandSource;
	/** `args`: everything after the name, trimmed. Throwing reports the error's message to the user. */
	handler(args: string, ctx: CommandContext<S>): void | Promise<void>;
}

/** Looking commands up, which a layered registry asks of the one below it. */
export interface CommandLookup<S> {
	get(name: string): CommandDefinition<S> | undefined;
	list(): CommandDefinition<S>[];
}

const NAME = /^[a-z][a-z-]*$/;

/**
 * Commands by name. A registry may sit on top of another (the screen's own commands over the session's): it
 * finds and lists both, its own after those below, and a name may be registered only once across the layers.
 */
export class CommandRegistry<S> implements CommandLookup<S> {
	private readonly commands = new Map<string, CommandDefinition<S>>();

	constructor(private readonly below?: CommandLookup<S>) {}

	/** Adds a command; returns the function that removes it. Throws on a malformed or taken name. */
	register(definition: CommandDefinition<S>): () => void {
		const { name } = definition;
		if (!NAME.test(name)) throw new Error(`Invalid command name "${name}": use lowercase letters and dashes, starting with a letter.`);
		const taken = this.get(name);
		if (taken) throw new Error(`The command /${name} is already registered${taken.source ? ` (${taken.source})` : ""}.`);
		this.commands.set(name, definition);
		return () => {
			if (this.commands.get(name) === definition) this.commands.delete(name);
		};
	}

	get(name: string): CommandDefinition<S> | undefined {
		return this.commands.get(name) ?? this.below?.get(name);
	}

	/** Every command, those below first, each in the order it was registered. */
	list(): CommandDefinition<S>[] {
		return [...(this.below?.list() ?? []), ...this.commands.values()];
	}
}
