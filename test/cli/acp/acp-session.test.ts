// The session's slash commands as an editor gets them over ACP: a command's definition says whether it moves the
// conversation, and those that do are neither offered nor run.
import { describe, expect, it } from "vitest";
import { availableCommands, promptCommand } from "../../../src/cli/acp/acp-session.js";
import { type AgentSession, type CommandDefinition, CommandRegistry, type CommandSession } from "../../../src/core/index.js";
import { registerSessionCommands } from "../../../src/core/session/commands/index.js";

function sessionWith(...commands: CommandDefinition<CommandSession>[]): AgentSession {
	const registry = new CommandRegistry<CommandSession>();
	for (const command of commands) registry.register(command);
	return { commands: registry } as unknown as AgentSession;
}

const command = (name: string, movesConversation?: boolean): CommandDefinition<CommandSession> => ({ name, description: name, movesConversation, handler: () => {} });

describe("ACP's slash commands", () => {
	it("leaves out a command whose definition moves the conversation, whatever its name", () => {
		const session = sessionWith(command("jump", true), command("stay"), command("new", false));
		expect(availableCommands(session).map((offered) => offered.name)).toEqual(["stay", "new"]);
		expect(promptCommand(session, "/jump somewhere")).toBeUndefined();
		expect(promptCommand(session, "/stay here")).toMatchObject({ definition: { name: "stay" }, args: "here" });
	});

	it("the session's own commands that replace or move the conversation say so", () => {
		const registry = new CommandRegistry<CommandSession>();
		registerSessionCommands(registry);
		const moving = registry.list().filter((definition) => definition.movesConversation).map((definition) => definition.name);
		expect(moving.sort()).toEqual(["fork", "new", "resume", "rewind", "tree"]);
	});
});
