// Print mode's prompt when its words name a command: prompt templates and skills are expanded as the screen
// expands them; the session's other commands and unknown names are usage errors; paths stay prompts.
import { describe, expect, it } from "vitest";
import { type CommandDefinition, CommandRegistry } from "../../../src/core/session/commands/command-registry.js";
import { printPrompt } from "../../../src/cli/print/prompt-command.js";
import { UsageError } from "../../../src/cli/usage-error.js";

function registry(): CommandRegistry<unknown> {
	const commands = new CommandRegistry<unknown>();
	const command = (definition: Partial<CommandDefinition<unknown>> & { name: string }): CommandDefinition<unknown> => ({
		description: definition.name,
		handler: () => {
			throw new Error("print mode never runs a handler");
		},
		...definition,
	});
	commands.register(command({ name: "model", source: "builtin" }));
	commands.register(command({ name: "deploy", source: "extension" }));
	commands.register(command({ name: "fix", source: "prompt", expand: async (args) => `Fix issue ${args}.` }));
	commands.register(command({ name: "skill:review", source: "skill", expand: async (args) => `<skill>Review.</skill>\n\n${args}` }));
	return commands;
}

describe("printPrompt", () => {
	it("expands a prompt template or a skill named at the start of the words", async () => {
		expect(await printPrompt(registry(), "/fix 42 parser")).toBe("Fix issue 42 parser.");
		expect(await printPrompt(registry(), "/skill:review the diff")).toBe("<skill>Review.</skill>\n\nthe diff");
	});

	it("leaves other words, paths among them, as they are", async () => {
		expect(await printPrompt(registry(), "explain /fix")).toBe("explain /fix");
		expect(await printPrompt(registry(), "/etc/hosts what is in it")).toBe("/etc/hosts what is in it");
		expect(await printPrompt(registry(), "")).toBe("");
	});

	it("refuses the session's other commands, which have no answer to print, pointing at the flags, the screen and RPC", async () => {
		const refused = printPrompt(registry(), "/model gpt-5.6-terra");
		await expect(refused).rejects.toBeInstanceOf(UsageError);
		await expect(refused).rejects.toThrow(
			"/model is a command, not a prompt: print mode sends prompts, expanding prompt templates and skills. " +
				"Flags do what the session's commands do (-m, --thinking, -c, --session, --fork: loom --help); run other commands in the screen (loom) or over RPC (loom --mode rpc).",
		);
		await expect(printPrompt(registry(), "/deploy now")).rejects.toThrow(/^\/deploy is a command, not a prompt/);
	});

	it("refuses an unknown command, naming the templates and skills there are and how to send such text", async () => {
		const refused = printPrompt(registry(), "/fxi 42");
		await expect(refused).rejects.toBeInstanceOf(UsageError);
		await expect(refused).rejects.toThrow(
			"Unknown command /fxi. Prompt templates and skills: /fix, /skill:review. To send text starting with /, pipe it on stdin.",
		);
		await expect(printPrompt(new CommandRegistry<unknown>(), "/fix 1")).rejects.toThrow(
			"Unknown command /fix. There are no prompt templates or skills. To send text starting with /, pipe it on stdin.",
		);
	});
});
