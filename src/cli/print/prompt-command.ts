// Print mode's prompt when its words name a command ("/fix 42 parser"): a prompt template or a skill is expanded
// as the screen expands it. Any other command has no answer to print, and an unknown name is most likely a typo
// costing a model call, so both are usage errors. Paths ("/etc/hosts …") stay prompts, and so does piped stdin.
import { type CommandLookup, resolveCommand } from "../../core/index.js";
import { UsageError } from "../usage-error.js";

/** Templates and skills named at most in the error about an unknown command. */
const MAX_NAMED = 12;

/** The words to send: `words` themselves, or the text of the template or skill they name. */
export async function printPrompt(commands: CommandLookup<unknown>, words: string): Promise<string> {
	const call = resolveCommand(words, commands);
	if (!call) return words;
	const command = call.definition;
	if (command?.expand) return command.expand(call.args);
	if (command) {
		throw new UsageError(
			`/${call.name} is a command, not a prompt: print mode sends prompts, expanding prompt templates and skills. ` +
				"Flags do what the session's commands do (-m, --thinking, -c, --session, --fork: loom --help); run other commands in the screen (loom) or over RPC (loom --mode rpc).",
		);
	}
	const expanding = commands.list().filter((candidate) => candidate.expand !== undefined);
	const names = expanding.slice(0, MAX_NAMED).map((candidate) => `/${candidate.name}`);
	if (expanding.length > MAX_NAMED) names.push(`and ${expanding.length - MAX_NAMED} more`);
	const known = names.length > 0 ? `Prompt templates and skills: ${names.join(", ")}.` : "There are no prompt templates or skills.";
	throw new UsageError(`Unknown command /${call.name}. ${known} To send text starting with /, pipe it on stdin.`);
}
