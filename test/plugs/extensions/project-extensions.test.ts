// A project's own extensions (.loom/extensions) run only once the user trusts the project: asked once through
// the session's ui when it can ask, the answer remembered per directory; --trust or settings opt in without asking.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAgentSession, type CreateAgentSessionOptions } from "../../../src/sdk/create-agent-session.js";
import { SessionManager } from "../../../src/sdk/session-manager.js";
import { ScriptedUi } from "../../support/scripted-ui.js";
import { workspace, type Workspace } from "../../support/temp-dir.js";
import { waitFor } from "../../support/wait-for.js";

function projectWithExtension(): Workspace {
	const ws = workspace();
	mkdirSync(join(ws.cwd, ".loom", "extensions"), { recursive: true });
	writeFileSync(
		join(ws.cwd, ".loom", "extensions", "team.ts"),
		'export default function (loom) { loom.registerCommand("team", { description: "the team\'s command", handler: () => {} }); }\n',
	);
	return ws;
}

function open(ws: Workspace, options: CreateAgentSessionOptions = {}) {
	return createAgentSession({
		cwd: ws.cwd,
		loomHome: ws.home,
		provider: "openai",
		apiKey: "unused",
		sessionManager: SessionManager.inMemory(),
		...options,
	});
}

const hasTeamCommand = (session: { commands: { get(name: string): unknown } }) => session.commands.get("team") !== undefined;
const TITLE = "Trust this project folder?";

describe("a project's own extensions", () => {
	it("wait while nobody can be asked, and say what waits", async () => {
		const ws = projectWithExtension();
		const ui = new ScriptedUi({ interactive: false });
		const { session, projectTrust } = await open(ws, { ui });
		expect(hasTeamCommand(session)).toBe(false);
		expect(projectTrust.status).toBe("undecided");
		expect(projectTrust.pending).toEqual([join(".loom", "extensions", "team.ts")]);
		expect(ui.titles()).toEqual([]);
		session.dispose();
	});

	it("load at once with trustProject or settings' trustProjects, without asking or remembering", async () => {
		const ws = projectWithExtension();
		const flagged = await open(ws, { ui: new ScriptedUi(), trustProject: true });
		expect(hasTeamCommand(flagged.session)).toBe(true);
		flagged.session.dispose();

		writeFileSync(join(ws.home, "settings.json"), JSON.stringify({ trustProjects: true }));
		const ui = new ScriptedUi();
		const set = await open(ws, { ui });
		expect(hasTeamCommand(set.session)).toBe(true);
		expect(ui.titles()).toEqual([]);
		set.session.dispose();
		expect(() => readFileSync(join(ws.home, "trust.json"))).toThrow();
	});

	it("are asked about once the ui can ask; a yes loads them and is remembered for the folder", async () => {
		const ws = projectWithExtension();
		const ui = new ScriptedUi().choose("Yes");
		const { session, projectTrust } = await open(ws, { ui });
		await waitFor(() => hasTeamCommand(session), Boolean, { what: "the project's extension to load" });
		expect(ui.titles()).toEqual([TITLE]);
		expect(projectTrust.status).toBe("trusted");
		expect(JSON.parse(readFileSync(join(ws.home, "trust.json"), "utf8"))).toEqual({ [ws.cwd]: true });
		session.dispose();

		const again = new ScriptedUi();
		const next = await open(ws, { ui: again });
		expect(hasTeamCommand(next.session)).toBe(true);
		expect(again.titles()).toEqual([]);
		next.session.dispose();
	});

	it("a no is remembered: nothing loads and nobody asks again; a dismissed question comes back next time", async () => {
		const ws = projectWithExtension();
		const dismissed = new ScriptedUi().choose(undefined);
		const first = await open(ws, { ui: dismissed });
		await waitFor(() => dismissed.asked.length === 1, Boolean, { what: "the question" });
		expect(first.projectTrust.status).toBe("undecided");
		first.session.dispose();

		const refusing = new ScriptedUi().choose("No");
		const second = await open(ws, { ui: refusing });
		await waitFor(() => second.projectTrust.status === "refused", Boolean, { what: "the answer" });
		expect(hasTeamCommand(second.session)).toBe(false);
		second.session.dispose();

		const later = new ScriptedUi().choose("Yes");
		const third = await open(ws, { ui: later });
		expect(later.titles()).toEqual([]);
		expect(third.projectTrust.pending).toEqual([join(".loom", "extensions", "team.ts")]);
		expect(hasTeamCommand(third.session)).toBe(false);
		third.session.dispose();
	});

	it("wait for an interface that installs a ui able to ask, then load on its yes", async () => {
		const ws = projectWithExtension();
		const { session } = await open(ws, { ui: new ScriptedUi({ interactive: false }) });
		const screen = new ScriptedUi().choose("Yes");
		session.setUi(screen);
		await waitFor(() => hasTeamCommand(session), Boolean, { what: "the project's extension to load" });
		expect(screen.titles()).toEqual([TITLE]);
		session.dispose();
	});
});
