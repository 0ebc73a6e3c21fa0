// Slash commands as data: each command is one definition registered by whoever offers it (the session's
// built-ins, the screen, later extensions, prompt templates and skills). Whoever runs commands (the screen,
// RPC) looks them up here; nobody keeps a closed list.

import type { NoticeLevel, SessionUi } from "../session-ui.js";

export type CommandSource = "builtin" | "extension" | "prompt" | "skill";
/** Whose a command is: the user's own (their folders, flags and code), or the project's (files a repository brings). */
export type CommandScope = "user" | "project";

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
	/** What offers it; none counts as an extension (code registering commands). */
	source?: CommandSource;
	/** Whose it is (default "user"): a project's command ranks below the user's of the same name. */
	scope?: CommandScope;
	/** Where the command was defined (a prompt template's, skill's or extension's file), for messages about it. */
	origin?: string;
	/**
	 * The command replaces the conversation or moves within it (new, resume, fork, tree, rewind): a front end whose
	 * client owns the thread and its id (an editor over ACP) does not offer it.
	 */
	movesConversation?: boolean;
	/** `args`: everything after the name, trimmed. Throwing reports the error's message to the user. */
	handler(args: string, ctx: CommandContext<S>): void | Promise<void>;
	/**
	 * For a command that stands for a prompt (a prompt template, a skill): the text it sends for `args`, which its
	 * handler sends. Print mode sends it as its prompt, where no other command can run.
	 */
	expand?(args: string): Promise<string>;
}

/** Looking commands up, which a layered registry asks of the one below it. */
export interface CommandLookup<S> {
	get(name: string): CommandDefinition<S> | undefined;
	list(): CommandDefinition<S>[];
}

/** A command's name as typed after the slash. */
export const COMMAND_NAME = "[a-z][a-z0-9-]*(?::[a-z0-9][a-z0-9-]*)?";
const NAME = new RegExp(`^${COMMAND_NAME}$`);
const SLASH_COMMAND = new RegExp(`^/(${COMMAND_NAME})(?:\\s+([\\s\\S]*))?$`);

/** A command as typed: "/name args". */
export interface SlashCommand {
	name: string;
	/** Everything after the name, trimmed. */
	args: string;
}

/**
 * A command is "/name" at the very start, alone or followed by blanks; "/etc/hosts …" and other paths are prompts.
 * Whether a command of that name exists is for the caller to ask.
 */
export function parseSlashCommand(text: string): SlashCommand | undefined {
	const match = SLASH_COMMAND.exec(text.trim());
	if (!match) return undefined;
	return { name: match[1]!, args: (match[2] ?? "").trim() };
}

/** A typed line that is a command: its name and arguments, and the command that runs for it. */
export interface ResolvedCommand<S> extends SlashCommand {
	/** The registry's command of that name that runs; undefined for an unknown name. */
	definition: CommandDefinition<S> | undefined;
}

/**
 * What a typed line asks for, the one way every mode reads it: undefined for a prompt (not "/name …"), else the
 * call with the command the registry runs for it. An unknown name is each caller's to report, in its own words.
 */
export function resolveCommand<S>(text: string, registry: CommandLookup<S>): ResolvedCommand<S> | undefined {
	const call = parseSlashCommand(text);
	return call && { ...call, definition: registry.get(call.name) };
}

/** The one wording of a refusal while a run is going on: "Cannot <what> while a run is active. <how to go on>" */
export function busyRefusal(what: string, howToGoOn: string): string {
	return `Cannot ${what} while a run is active. ${howToGoOn}`;
}

/** True (and says why) when a run is going on; for commands that replace the conversation. */
export function refusedWhileBusy(ctx: CommandContext<unknown>, what: string): boolean {
	if (!ctx.busy) return false;
	ctx.notify("error", busyRefusal(what, "Press Esc to interrupt it first."));
	return true;
}

export interface CommandRegistryOptions<S> {
	/** Told once for each command a registration leaves hidden (the newcomer or the one it outranks), with the one that runs. */
	onHidden?(hidden: CommandDefinition<S>, by: CommandDefinition<S>): void;
}

/**
 * Which of two commands of one name runs: the lower rank. Built-ins, then the user's extensions, the user's
 * prompt templates and skills, the project's extensions, the project's templates and skills: loom's own before
 * the user's, code before text, and the user's before what a cloned repository brings.
 */
export function commandRank(command: CommandDefinition<unknown>): number {
	if (command.source === "builtin") return 0;
	const text = command.source === "prompt" || command.source === "skill" ? 1 : 0;
	return (command.scope === "project" ? 3 : 1) + text;
}

const KIND: Record<CommandSource, string> = { builtin: "built-in command", extension: "extension", prompt: "prompt template", skill: "skill" };

/** What to tell the user about a command another one of its name hides. */
export function hiddenCommandNotice(hidden: CommandDefinition<unknown>, by: CommandDefinition<unknown>): string {
	const winner =
		by.source === "builtin"
			? "the built-in command of that name"
			: `the command of that name${by.origin ? ` from the ${KIND[by.source ?? "extension"]} ${by.origin}` : ""}`;
	return `/${hidden.name}${hidden.origin ? ` from ${hidden.origin}` : ""} is hidden by ${winner}; rename it to use it.`;
}

/**
 * Commands by name. A registry may sit on top of another (the screen's own commands over the session's): it
 * finds and lists both, its own after those below. Several commands may have one name: the one of the lowest
 * rank runs (see commandRank; among equals the first registered, and the layer above before the one below), the
 * others are hidden, never refused, and come back when it is removed. Only a second built-in of a name is an error.
 */
export class CommandRegistry<S> implements CommandLookup<S> {
	/** Each name's commands of this layer, in registration order. */
	private readonly commands = new Map<string, CommandDefinition<S>[]>();

	constructor(
		private readonly below?: CommandLookup<S>,
		private readonly options: CommandRegistryOptions<S> = {},
	) {}

	/** Adds a command; returns the function that removes it. Throws on a malformed name or a second built-in. */
	register(definition: CommandDefinition<S>): () => void {
		const { name } = definition;
		if (!NAME.test(name)) {
			throw new Error(`Invalid command name "${name}": use lowercase letters, digits and dashes, starting with a letter.`);
		}
		const before = this.get(name);
		if (before && commandRank(before) === 0 && commandRank(definition) === 0) {
			throw new Error(`The command /${name} is already registered${before.source ? ` (${before.source})` : ""}.`);
		}
		this.commands.set(name, [...(this.commands.get(name) ?? []), definition]);
		const after = this.get(name)!;
		if (before) {
			if (after === definition) this.options.onHidden?.(before, definition);
			else this.options.onHidden?.(definition, after);
		}
		return () => {
			const rest = (this.commands.get(name) ?? []).filter((command) => command !== definition);
			if (rest.length > 0) this.commands.set(name, rest);
			else this.commands.delete(name);
		};
	}

	get(name: string): CommandDefinition<S> | undefined {
		const own = this.own(name);
		const below = this.below?.get(name);
		if (!own || !below) return own ?? below;
		return commandRank(below) < commandRank(own) ? below : own;
	}

	/** Every command that can run, those below first, each in the order its name was first registered. */
	list(): CommandDefinition<S>[] {
		const below = (this.below?.list() ?? []).filter((command) => this.get(command.name) === command);
		const own = [...this.commands.keys()].map((name) => this.own(name)!).filter((command) => this.get(command.name) === command);
		return [...below, ...own];
	}

	/** Commands below that this layer's own hide. */
	hidden(): CommandDefinition<S>[] {
		return (this.below?.list() ?? []).filter((command) => this.get(command.name) !== command);
	}

	/** This layer's command of a name that runs: the lowest rank, the first registered among equals. */
	private own(name: string): CommandDefinition<S> | undefined {
		let best: CommandDefinition<S> | undefined;
		for (const command of this.commands.get(name) ?? []) if (!best || commandRank(command) < commandRank(best)) best = command;
		return best;
	}
}
