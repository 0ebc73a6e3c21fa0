import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isProjectTrusted, nonInteractiveUi, projectTrust, setProjectTrust } from "../../../src/core/session/index.js";
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
