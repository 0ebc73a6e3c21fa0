// Skills and prompt templates installed into a real session talking to the scripted model server: what the
// model is told, what the commands send (a prompt, or a steering message during a run), and how names that
// are taken are reported.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import type { AgentTool } from "../../../src/core/index.js";
import { AgentSession, type CommandSession, type SessionEvent } from "../../../src/core/session/index.js";
import { installResources } from "../../../src/plugs/resources/install-resources.js";
import { createBuiltinTools } from "../../../src/tools/index.js";
import { hiddenCommandNotices, screenCommands } from "../../../src/tui/editor/slash-commands.js";
import type { SessionPort } from "../../../src/tui/session-port.js";
import { messagesOf, systemOf } from "../../core/session/compaction/server-model.js";
import { projectTree } from "../../support/project-tree.js";
import { ScriptedUi } from "../../support/scripted-ui.js";
import { scriptedSessionOptions } from "../../support/scripted-session.js";
import { useScriptedServer } from "../../support/use-scripted-server.js";

const server = useScriptedServer();

const FILES = {
	"home/skills/review/SKILL.md": "---\nname: review\ndescription: Review a change for bugs and missing tests.\n---\nCheck every changed line.\n",
	"home/skills/broken/SKILL.md": "---\nname: broken\n---\nNo description.\n",
	"home/prompts/fix.md": "---\ndescription: Fix an issue\nargument-hint: <issue> [area]\n---\nFix issue $1 in $2. Context: $ARGUMENTS\n",
	"home/prompts/new.md": "Shadows a built-in.\n",
	"project/.claude/commands/help.md": "The screen's /help wins over this.\n",
};

async function setUp(tools = createBuiltinTools("/").defaults) {
	const root = projectTree(FILES);
	const cwd = join(root, "project");
	const home = join(root, "home");
	const session = new AgentSession(scriptedSessionOptions(server, cwd, home, { tools }));
	const ui = new ScriptedUi({ interactive: false });
	session.setUi(ui);
	const installed = await installResources(session, { cwd, home, userHome: join(root, "user") });
	const events: SessionEvent[] = [];
	session.subscribe((event) => void events.push(event));
	return { root, cwd, home, session, installed, events, ui };
}

function run(session: AgentSession, line: string, busy = false): Promise<void> {
	const [name, ...rest] = line.slice(1).split(" ");
	const command = session.commands.get(name!);
	if (!command) throw new Error(`no command /${name}`);
	return Promise.resolve(command.handler(rest.join(" "), { session: session as CommandSession, notify: () => {}, busy }));
}

const lastUserText = (index: number) => messagesOf(server.requests[index]!).filter((m: any) => m.role === "user").at(-1).content;

describe("installResources", () => {
	it("lists the skills in the system prompt and reports the broken one and the template whose name is a built-in", async () => {
		const { root, session, ui } = await setUp();
		server.enqueue({ text: "ok" });
		await session.runPrompt("hello");
		const system = systemOf(server.requests[0]!);
		expect(system).toContain(`<name>review</name>\n    <description>Review a change for bugs and missing tests.</description>\n    <location>${join(root, "home/skills/review/SKILL.md")}</location>`);
		expect(system).not.toContain("broken");
		expect(session.loadWarnings).toEqual([
			`${join(root, "home/skills/broken/SKILL.md")}: its front matter has no "description" (what the skill does and when to use it); the skill is skipped.`,
		]);
		expect(ui.noticeLines()).toEqual([`warning: /new from ${join(root, "home/prompts/new.md")} is hidden by the built-in command of that name; rename it to use it.`]);
		expect(session.commands.get("new")?.source).toBe("builtin");
		session.dispose();
	});

	it("offers the skills and templates as commands that /help describes", async () => {
		const { session } = await setUp();
		const own = session.commands.list().filter((command) => command.source !== "builtin");
		expect(own.map((c) => [c.name, c.description, c.argsHint, c.source])).toEqual([
			["skill:review", "Review a change for bugs and missing tests.", "[request]", "skill"],
			["fix", "Fix an issue", "<issue> [area]", "prompt"],
			["help", "The screen's /help wins over this.", undefined, "prompt"],
		]);
		session.dispose();
	});

	it("/skill:<name> sends the skill's instructions with the request; a template sends its text filled in", async () => {
		const { root, session } = await setUp();
		server.enqueue({ text: "reviewed" }, { text: "fixed" });
		await run(session, "/skill:review the parser changes");
		expect(lastUserText(0)).toBe(
			[
				`<skill name="review" location="${join(root, "home/skills/review/SKILL.md")}">`,
				`Paths in this skill are relative to ${join(root, "home/skills/review")}.`,
				"",
				"Check every changed line.",
				"</skill>",
				"",
				"the parser changes",
			].join("\n"),
		);
		writeFileSync(join(root, "home/prompts/fix.md"), "Fix issue $1 quickly, in $2.\n");
		await run(session, "/fix 42 parser");
		expect(lastUserText(1)).toBe("Fix issue 42 quickly, in parser.");
		session.dispose();
	});

	it("during a run, a template's text is steered into it, as typed text would be", async () => {
		let release!: () => void;
		const gate = new Promise<void>((resolve) => (release = resolve));
		const wait: AgentTool = {
			name: "wait",
			label: "wait",
			description: "Waits.",
			parameters: Type.Object({}),
			async execute() {
				await gate;
				return { content: [{ type: "text", text: "waited" }], details: {} };
			},
		};
		const { session } = await setUp([wait]);
		server.enqueue({ toolCalls: [{ name: "wait", arguments: {} }] }, { text: "done" });
		session.subscribe((event) => {
			if (event.type === "tool_execution_start") void run(session, "/fix 7 ui", true).then(release);
		});
		await session.prompt("start");
		expect(server.requests).toHaveLength(2);
		expect(messagesOf(server.requests[1]!).map((m: any) => m.role)).toEqual(["user", "assistant", "tool", "user"]);
		expect(lastUserText(1)).toBe("Fix issue 7 in ui. Context: 7 ui");
		session.dispose();
	});

	it("lists no skills while the read tool is off, though /skill: commands still work", async () => {
		const { session } = await setUp(createBuiltinTools("/").defaults.filter((tool) => tool.name !== "read"));
		server.enqueue({ text: "ok" });
		await session.runPrompt("hello");
		expect(systemOf(server.requests[0]!)).not.toContain("available_skills");
		expect(session.commands.get("skill:review")).toBeDefined();
		session.dispose();
	});

	it("in the screen, the screen's built-ins hide a template of the same name, and the screen says so", async () => {
		const { root, session } = await setUp();
		const commands = screenCommands(session as unknown as SessionPort);
		expect(commands.get("help")?.source).toBe("builtin");
		expect(commands.list().filter((c) => c.name === "help")).toHaveLength(1);
		expect(hiddenCommandNotices(commands)).toEqual([
			`/help from ${join(root, "project/.claude/commands/help.md")} is hidden by the built-in command of that name; rename it to use it.`,
		]);
		session.dispose();
	});
});
