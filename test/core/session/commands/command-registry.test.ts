import { describe, expect, it } from "vitest";
import { type CommandDefinition, CommandRegistry, hiddenCommandNotice, parseSlashCommand, resolveCommand } from "../../../../src/core/session/commands/command-registry.js";
import { type CommandSession, SESSION_COMMANDS } from "../../../../src/core/session/commands/session-commands.js";

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

	it("refuses a second built-in of a name, saying where the first came from", () => {
		const registry = new CommandRegistry<Session>();
		registry.register(command("model", { source: "builtin" }));
		expect(() => registry.register(command("model", { source: "builtin" }))).toThrow("The command /model is already registered (builtin).");
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
	});

	it("gives a handler its arguments and the caller's context", async () => {
		const registry = new CommandRegistry<Session>();
		const notices: string[] = [];
		registry.register(command("greet", { handler: (args, ctx) => ctx.notify("info", `${args} from ${ctx.session.name}`) }));
		await registry.get("greet")!.handler("hello", { session: { name: "s1" }, notify: (_level, text) => notices.push(text), busy: false });
		expect(notices).toEqual(["hello from s1"]);
	});
});

describe("commands of the same name", () => {
	const RANKED: [string, Partial<CommandDefinition<Session>>][] = [
		["built-in", { source: "builtin" }],
		["user's extension", { source: "extension", origin: "/home/.loom/extensions/guard.ts" }],
		["user's template", { source: "prompt", origin: "/home/.loom/prompts/review.md" }],
		["project's extension", { source: "extension", scope: "project", origin: "/repo/.loom/extensions/x.ts" }],
		["project's template", { source: "prompt", scope: "project", origin: "/repo/.loom/prompts/review.md" }],
	];

	function recording() {
		const hidden: string[] = [];
		const registry = new CommandRegistry<Session>(undefined, { onHidden: (loser, winner) => hidden.push(`${loser.description} < ${winner.description}`) });
		return { registry, hidden };
	}

	it("run by rank: built-ins, the user's extensions, the user's templates and skills, the project's extensions, the project's templates and skills", () => {
		for (let winner = 0; winner < RANKED.length; winner++) {
			for (let loser = winner + 1; loser < RANKED.length; loser++) {
				for (const order of [[winner, loser], [loser, winner]]) {
					const { registry, hidden } = recording();
					for (const index of order) registry.register(command("review", { ...RANKED[index]![1], description: RANKED[index]![0] }));
					expect(registry.get("review")?.description).toBe(RANKED[winner]![0]);
					expect(registry.list().map((c) => c.description)).toEqual([RANKED[winner]![0]]);
					expect(hidden).toEqual([`${RANKED[loser]![0]} < ${RANKED[winner]![0]}`]);
				}
			}
		}
	});

	it("leaves the later of two equals hidden, and skills rank as templates do", () => {
		const { registry, hidden } = recording();
		registry.register(command("deploy", { source: "extension", description: "first" }));
		registry.register(command("deploy", { source: "extension", description: "second" }));
		registry.register(command("deploy", { description: "no source: as an extension of the user's" }));
		registry.register(command("skill:x", { source: "skill", scope: "project", description: "project skill" }));
		registry.register(command("skill:x", { source: "skill", description: "user skill" }));
		expect(registry.get("deploy")?.description).toBe("first");
		expect(registry.get("skill:x")?.description).toBe("user skill");
		expect(hidden).toEqual(["second < first", "no source: as an extension of the user's < first", "project skill < user skill"]);
	});

	it("bring the hidden one back when the winner is removed, and removing the hidden one changes nothing", () => {
		const { registry } = recording();
		const template = command("review", { source: "prompt", scope: "project" });
		const extension = command("review", { source: "extension" });
		const removeTemplate = registry.register(template);
		const removeExtension = registry.register(extension);
		expect(registry.get("review")).toBe(extension);
		removeExtension();
		expect(registry.get("review")).toBe(template);
		registry.register(extension);
		removeTemplate();
		expect(registry.list()).toEqual([extension]);
	});

	it("are described in one notice naming both and where each came from", () => {
		const template = command("review", { source: "prompt", scope: "project", origin: "/repo/.loom/prompts/review.md" });
		const extension = command("review", { source: "extension", origin: "/home/.loom/extensions/guard.ts" });
		expect(hiddenCommandNotice(template, extension)).toBe(
			"/review from /repo/.loom/prompts/review.md is hidden by the command of that name from the extension /home/.loom/extensions/guard.ts; rename it to use it.",
		);
		expect(hiddenCommandNotice(command("model", { source: "extension", origin: "/tmp/ext.ts" }), command("model", { source: "builtin" }))).toBe(
			"/model from /tmp/ext.ts is hidden by the built-in command of that name; rename it to use it.",
		);
	});
});

describe("the session's commands", () => {
	it("are the built-ins new, model, thinking, session, resume, compact, rewind, tree and fork", () => {
		expect(SESSION_COMMANDS.map((c) => c.name)).toEqual(["new", "model", "thinking", "session", "resume", "compact", "rewind", "tree", "fork"]);
		expect(new Set(SESSION_COMMANDS.map((c) => c.source))).toEqual(new Set(["builtin"]));
	});

	it("/session says a new session's file comes with its first message", async () => {
		const notices: string[] = [];
		const session = {
			model: { id: "m", provider: "p" },
			thinkingLevel: "off",
			sessionFile: "/s/new.jsonl",
			sessionSaved: false,
			messageCount: 0,
			usageTotals: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 },
		} as unknown as CommandSession;
		const run = () => SESSION_COMMANDS.find((c) => c.name === "session")!.handler("", { session, busy: false, notify: (_level, text) => notices.push(text) });
		await run();
		expect(notices.at(-1)).toMatch(/^Session file: \/s\/new\.jsonl \(created with the first message\)\n/);
		(session as { sessionSaved: boolean }).sessionSaved = true;
		await run();
		expect(notices.at(-1)).toMatch(/^Session file: \/s\/new\.jsonl\n/);
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

describe("resolveCommand", () => {
	const registry = new CommandRegistry<Session>();
	const fix: CommandDefinition<Session> = { name: "fix", description: "fix it", handler: () => {} };
	registry.register(fix);

	it("finds the registered command a line names, with its arguments", () => {
		expect(resolveCommand(" /fix 42 parser ", registry)).toEqual({ name: "fix", args: "42 parser", definition: fix });
	});

	it("leaves an unknown name to the caller, and text that is no command as a prompt", () => {
		expect(resolveCommand("/fixx it", registry)).toEqual({ name: "fixx", args: "it", definition: undefined });
		expect(resolveCommand("/etc/hosts", registry)).toBeUndefined();
		expect(resolveCommand("please /fix", registry)).toBeUndefined();
	});
});
