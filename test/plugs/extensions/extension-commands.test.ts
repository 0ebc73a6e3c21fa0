// Commands of the same name from extensions, prompt templates and skills: the one of the higher rank runs
// (built-ins, the user's extensions, the user's templates and skills, the project's extensions, the project's
// templates and skills), the other is hidden with a notice, and nothing is unloaded for it.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scriptedSdkSession } from "../../support/sdk-session.js";
import { writeFileAt } from "../../support/project-tree.js";
import { workspace } from "../../support/temp-dir.js";
import { useScriptedServer } from "../../support/use-scripted-server.js";

const server = useScriptedServer();

/** The trial's guard: blocks `touch GUARDED` and offers /review. */
const GUARD = `export default function (loom) {
	loom.on("tool_call", (event) => {
		if (event.toolName === "bash" && /touch GUARDED/.test(event.input.command)) return { block: true, reason: "guard says no" };
		return undefined;
	});
	loom.registerCommand("review", { description: "guard status", handler: (_args, ctx) => ctx.notify("info", "guard on") });
}
`;

/** An extension with a tool, a hook, and commands of the given names. */
function toolAndCommands(...names: string[]): string {
	return `import { Type } from "loom";
export default function (loom) {
	loom.registerTool({ name: "ext_tool", label: "x", description: "x", parameters: Type.Object({}), async execute() { return { content: [{ type: "text", text: "ext tool ran" }], details: undefined }; } });
	loom.on("tool_call", (event) => (event.toolName === "bash" ? { block: true, reason: "extension hook on duty" } : undefined));
${names.map((name) => `	loom.registerCommand("${name}", { description: "extension ${name}", handler: () => {} });`).join("\n")}
}
`;
}

const toolResult = (request: number) => server.requests[request]?.body.messages.find((message: any) => message.role === "tool")?.content;

describe("an extension's command whose name is taken", () => {
	it("a user's extension keeps its command over a cloned project's template of that name, and its guard stays on", async () => {
		const ws = workspace();
		const guard = writeFileAt(join(ws.home, "extensions", "guardext.ts"), GUARD);
		const template = writeFileAt(join(ws.cwd, ".loom", "prompts", "review.md"), "Review the code.\n");

		const { session, extensions, ui } = await scriptedSdkSession(server, {}, ws);

		expect(extensions).toEqual({ loaded: [guard], failed: [] });
		expect(session.commands.get("review")).toMatchObject({ description: "guard status", source: "extension", origin: guard });
		expect(ui.noticeLines()).toEqual([`warning: /review from ${template} is hidden by the command of that name from the extension ${guard}; rename it to use it.`]);
		server.enqueue({ toolCalls: [{ id: "t", name: "bash", arguments: { command: "touch GUARDED" } }] }, { text: "done" });
		await session.prompt("touch it");
		expect(toolResult(1)).toBe("guard says no");
		expect(existsSync(join(ws.cwd, "GUARDED"))).toBe(false);
		session.dispose();
	});

	it("loses to a built-in and to nothing else it outranks: the extension's tool and hooks load all the same", async () => {
		const ws = workspace();
		const extension = writeFileAt(join(ws.cwd, "ext.ts"), toolAndCommands("model", "help"));
		const help = writeFileAt(join(ws.cwd, ".loom", "prompts", "help.md"), "Help me.\n");

		const { session, extensions, ui } = await scriptedSdkSession(server, { extensions: ["ext.ts"] }, ws);

		expect(extensions).toEqual({ loaded: [extension], failed: [] });
		expect(session.tools.map((tool) => tool.name)).toContain("ext_tool");
		expect(session.commands.get("model")?.source).toBe("builtin");
		expect(session.commands.get("help")).toMatchObject({ source: "extension", description: "extension help" });
		expect(ui.noticeLines()).toEqual([
			`warning: /model from ${extension} is hidden by the built-in command of that name; rename it to use it.`,
			`warning: /help from ${help} is hidden by the command of that name from the extension ${extension}; rename it to use it.`,
		]);
		server.enqueue({ toolCalls: [{ id: "b", name: "bash", arguments: { command: "ls" } }] }, { text: "done" });
		await session.prompt("list");
		expect(toolResult(1)).toBe("extension hook on duty");
		session.dispose();
		// Disposing removes what the extension registered: the template it hid comes back.
		expect(session.commands.get("help")).toMatchObject({ source: "prompt", origin: help });
	});

	it("of a project's extension loses to the user's template, and wins over the project's template", async () => {
		const ws = workspace();
		const userTemplate = writeFileAt(join(ws.home, "prompts", "deploy.md"), "Deploy it.\n");
		const projectTemplate = writeFileAt(join(ws.cwd, ".loom", "prompts", "lint.md"), "Lint it.\n");
		const projectExtension = writeFileAt(join(ws.cwd, ".loom", "extensions", "team.ts"), toolAndCommands("deploy", "lint"));

		const { session, extensions, ui } = await scriptedSdkSession(server, { trustProject: true }, ws);

		expect(extensions.loaded).toEqual([projectExtension]);
		expect(session.commands.get("deploy")).toMatchObject({ source: "prompt", origin: userTemplate });
		expect(session.commands.get("lint")).toMatchObject({ source: "extension", scope: "project" });
		expect(ui.noticeLines()).toEqual([
			`warning: /deploy from ${projectExtension} is hidden by the command of that name from the prompt template ${userTemplate}; rename it to use it.`,
			`warning: /lint from ${projectTemplate} is hidden by the command of that name from the extension ${projectExtension}; rename it to use it.`,
		]);
		session.dispose();
	});
});
