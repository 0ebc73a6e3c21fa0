import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isProjectTrusted, projectTrust, setProjectTrust } from "../../../src/core/config/project-trust.js";
import { nonInteractiveUi, ProjectTrustGate } from "../../../src/core/session/index.js";
import { ScriptedUi } from "../../support/scripted-ui.js";
import { tempDir } from "../../support/temp-dir.js";

describe("project trust", () => {
	it("is undecided until the user answers, then remembers yes or no per directory", () => {
		const home = tempDir();
		expect(projectTrust(home, "/work/app")).toBeUndefined();
		setProjectTrust(home, "/work/app", false);
		expect(projectTrust(home, "/work/app")).toBe(false);
		expect(isProjectTrusted(home, "/work/app")).toBe(false);
		setProjectTrust(home, "/work/app", true);
		expect(isProjectTrusted(home, "/work/app")).toBe(true);
		expect(JSON.parse(readFileSync(join(home, "trust.json"), "utf8"))).toEqual({ "/work/app": true });
	});

	it("trusts a trusted directory's subdirectories, and the nearest decision wins", () => {
		const home = tempDir();
		setProjectTrust(home, "/work", true);
		setProjectTrust(home, "/work/vendor", false);
		expect(isProjectTrusted(home, "/work/app/src")).toBe(true);
		expect(isProjectTrusted(home, "/work/vendor/lib")).toBe(false);
		expect(projectTrust(home, "/elsewhere")).toBeUndefined();
	});

	it("treats a damaged trust file as no decision, and a new answer replaces it", () => {
		const home = tempDir();
		writeFileSync(join(home, "trust.json"), "{ not json");
		expect(projectTrust(home, "/work")).toBeUndefined();
		setProjectTrust(home, "/work", true);
		expect(isProjectTrusted(home, "/work")).toBe(true);
	});
});

describe("nonInteractiveUi", () => {
	it("answers every question with nothing and passes notices on", async () => {
		const notices: string[] = [];
		const ui = nonInteractiveUi((level, text) => notices.push(`${level}: ${text}`));
		expect(ui.interactive).toBe(false);
		expect(await ui.select({ title: "Pick" }, [{ label: "a", value: 1 }])).toBeUndefined();
		expect(await ui.confirm("Sure?")).toBe(false);
		expect(await ui.input("Name")).toBeUndefined();
		ui.notify("warning", "careful");
		expect(notices).toEqual(["warning: careful"]);
	});
});

describe("ProjectTrustGate", () => {
	it("asks once for everything waiting, whoever asks, and starts it all on a yes", async () => {
		const home = tempDir();
		const gate = new ProjectTrustGate(home, "/work/app");
		const started: string[] = [];
		await gate.whenTrusted([".loom/extensions/a.ts"], () => void started.push("extensions"));
		await gate.whenTrusted([".mcp.json: db"], () => void started.push("servers"));
		expect(gate.pending).toEqual([".loom/extensions/a.ts", ".mcp.json: db"]);
		const ui = new ScriptedUi().choose("Yes");
		const [first, second] = await Promise.all([gate.ask(ui), gate.ask(ui)]);
		expect([first, second]).toEqual([true, true]);
		expect(ui.titles()).toEqual(["Trust this project folder?"]);
		expect(started).toEqual(["extensions", "servers"]);
		expect(gate.pending).toEqual([]);
		await gate.whenTrusted(["later"], () => void started.push("later"));
		expect(started).toEqual(["extensions", "servers", "later"]);
		expect(isProjectTrusted(home, "/work/app")).toBe(true);
	});

	it("starts nothing after a no, and still names what it left out", async () => {
		const home = tempDir();
		setProjectTrust(home, "/work/app", false);
		const gate = new ProjectTrustGate(home, "/work/app");
		let started = false;
		await gate.whenTrusted([".loom/extensions/a.ts"], () => void (started = true));
		expect(await gate.ask(new ScriptedUi().choose("Yes"))).toBe(false);
		expect(started).toBe(false);
		expect(gate.status).toBe("refused");
		expect(gate.pending).toEqual([".loom/extensions/a.ts"]);
	});
});
