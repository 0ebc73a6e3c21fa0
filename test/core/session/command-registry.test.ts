import { describe, expect, it } from "vitest";
import { type CommandDefinition, CommandRegistry, parseSlashCommand } from "../../../src/core/session/command-registry.js";
import { SESSION_COMMANDS } from "../../../src/core/session/session-commands.js";

type Session = { name: string };

function command(name: string, extra: Partial<CommandDefinition<Session>> = {}): CommandDefinition<Session> {
	return { name, description: `the ${name} command`, handler: () => {}, ...extra };
}

describe("CommandRegistry", () => {
	it("finds a registered command by name and lists commands in registration order", () => {
		const registry = new CommandRegistry<Session>();
		registry.register(command("zeta"));
		registry.register(command("alpha", { argsHint: "<x>", source: "extension" }));
		expect(registry.get("alpha")).toMatchObject({ name: "alpha", argsHint: "<x>", source: "extension" });
		expect(registry.get("beta")).toBeUndefined();
		expect(registry.list().map((c) => c.name)).toEqual(["zeta", "alpha"]);
	});

	it("unregisters with the function register returned, and only that command", () => {
		const registry = new CommandRegistry<Session>();
		const remove = registry.register(command("deploy"));
		remove();
		expect(registry.get("deploy")).toBeUndefined();
		const replacement = command("deploy");
		registry.register(replacement);
		remove();
		expect(registry.get("deploy")).toBe(replacement);
	});

	it("rejects a second command of the same name, saying where the first came from", () => {
		const registry = new CommandRegistry<Session>();
		registry.register(command("model", { source: "builtin" }));
		expect(() => registry.register(command("model", { source: "extension" }))).toThrow("The command /model is already registered (builtin).");
	});

	it("rejects a name the editor could not parse as a command", () => {
		const registry = new CommandRegistry<Session>();
		for (const name of ["", "Deploy", "9lives", "with space", "/slash", "a:b:c", "skill:", ":x", "under_score"]) {
			expect(() => registry.register(command(name))).toThrow(/Invalid command name/);
		}
	});

	it("accepts digits and one namespace before a colon, as skills' commands use", () => {
		const registry = new CommandRegistry<Session>();
		for (const name of ["release-2", "skill:review", "skill:3d-print"]) registry.register(command(name));
		expect(registry.list().map((c) => c.name)).toEqual(["release-2", "skill:review", "skill:3d-print"]);
	});

	it("lets a built-in above hide a prompt template, skill or extension command below, and says which it hides", () => {
		const below = new CommandRegistry<Session>();
		below.register(command("help", { source: "prompt", origin: "/p/help.md" }));
		below.register(command("quit", { source: "extension" }));
		below.register(command("new", { source: "builtin" }));
		below.register(command("review", { source: "prompt" }));
		const above = new CommandRegistry<Session>(below);
		const help = command("help", { source: "builtin" });
		above.register(help);
		above.register(command("quit", { source: "builtin" }));
		expect(above.get("help")).toBe(help);
		expect(above.list().map((c) => `${c.name}:${c.source}`)).toEqual(["new:builtin", "review:prompt", "help:builtin", "quit:builtin"]);
		expect(above.hidden().map((c) => `${c.name}:${c.source}`)).toEqual(["help:prompt", "quit:extension"]);
		expect(() => above.register(command("new", { source: "builtin" }))).toThrow("The command /new is already registered (builtin).");
		expect(() => above.register(command("review", { source: "extension" }))).toThrow("The command /review is already registered (prompt).");
		expect(() => above.register(command("help", { source: "builtin" }))).toThrow("already registered (builtin)");
	});

	it("layered on another registry: finds and lists both, the lower layer first, and a name stays unique across them", async () => {
		const below = new CommandRegistry<Session>();
		below.register(command("new"));
		const above = new CommandRegistry<Session>(below);
		above.register(command("help"));
		// Registered below after the layer above was made: still found and listed.
		below.register(command("compact"));
		expect(above.list().map((c) => c.name)).toEqual(["new", "compact", "help"]);
		expect(above.get("compact")?.name).toBe("compact");
		expect(below.get("help")).toBeUndefined();
		expect(() => above.register(command("new"))).toThrow("The command /new is already registered.");
	});

	it("gives a handler its arguments and the caller's context", async () => {
		const registry = new CommandRegistry<Session>();
		const notices: string[] = [];
		registry.register(command("greet", { handler: (args, ctx) => ctx.notify("info", `${args} from ${ctx.session.name}`) }));
		await registry.get("greet")!.handler("hello", { session: { name: "s1" }, notify: (_level, text) => notices.push(text), busy: false });
		expect(notices).toEqual(["hello from s1"]);
	});
});

describe("the session's commands", () => {
	it("are the built-ins new, model, thinking, session, resume, compact, rewind, tree and fork", () => {
		expect(SESSION_COMMANDS.map((c) => c.name)).toEqual(["new", "model", "thinking", "session", "resume", "compact", "rewind", "tree", "fork"]);
		expect(new Set(SESSION_COMMANDS.map((c) => c.source))).toEqual(new Set(["builtin"]));
	});
});

describe("parseSlashCommand", () => {
	it("reads a command at the very start: its name and everything after it, trimmed", () => {
		expect(parseSlashCommand("/fix 42 parser")).toEqual({ name: "fix", args: "42 parser" });
		expect(parseSlashCommand("  /skill:review  the diff\nand the tests ")).toEqual({ name: "skill:review", args: "the diff\nand the tests" });
		expect(parseSlashCommand("/model")).toEqual({ name: "model", args: "" });
	});

	it("leaves paths and text that merely contain a slash as prompts", () => {
		expect(parseSlashCommand("/etc/hosts what is in it")).toBeUndefined();
		expect(parseSlashCommand("/usr/bin/env is missing")).toBeUndefined();
		expect(parseSlashCommand("explain /fix")).toBeUndefined();
		expect(parseSlashCommand("/Fix it")).toBeUndefined();
		expect(parseSlashCommand("/")).toBeUndefined();
	});
});
