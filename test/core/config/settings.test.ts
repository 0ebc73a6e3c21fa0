import { mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSettings, loomHome, SettingsError, settingsWarnings } from "../../../src/core/config/settings.js";
import { tempDir } from "../../support/temp-dir.js";

describe("loomHome", () => {
	it("uses LOOM_HOME when set, resolved to an absolute path", () => {
		expect(loomHome({ LOOM_HOME: "/tmp/somewhere" })).toBe("/tmp/somewhere");
		expect(loomHome({ LOOM_HOME: "rel/dir" })).toBe(join(process.cwd(), "rel/dir"));
	});

	it("expands a leading ~ the shell left alone (a quoted value, a .env or service file)", () => {
		expect(loomHome({ LOOM_HOME: "~/loom-data" })).toBe(join(homedir(), "loom-data"));
		expect(loomHome({ LOOM_HOME: "~" })).toBe(homedir());
	});

	it("falls back to ~/.loom", () => {
		expect(loomHome({})).toBe(join(homedir(), ".loom"));
		expect(loomHome({ LOOM_HOME: "  " })).toBe(join(homedir(), ".loom"));
	});
});

describe("loadSettings", () => {
	it("returns defaults when the file does not exist", () => {
		expect(loadSettings(tempDir())).toEqual({});
	});

	it("reads every documented setting and keeps unknown keys", () => {
		const home = tempDir();
		const settings = {
			provider: "openai",
			model: "gpt-4.1",
			thinking: "high",
			toolExecution: "sequential",
			retry: { maxRetries: 5, idleTimeoutMs: 60000 },
			compaction: { enabled: false },
		};
		writeFileSync(join(home, "settings.json"), JSON.stringify(settings));
		expect(loadSettings(home)).toEqual(settings);
	});

	it("warns about each unknown key, nested ones by their path, with the known key it may have meant", () => {
		const home = tempDir();
		const file = join(home, "settings.json");
		const value = { Deny: [], tools: { bash: { executonMode: "parallel" } }, guards: { anyName: false }, checkpoints: { enabled: true }, constructor: 1 };
		writeFileSync(file, JSON.stringify(value));
		const settings = loadSettings(home);
		expect(settings).toEqual(value);
		expect(settingsWarnings(settings)).toEqual([
			`${file}: unknown key "Deny" (kept, but loom does not use it): did you mean "deny"?`,
			`${file}: unknown key "tools.bash.executonMode" (kept, but loom does not use it): did you mean "tools.bash.executionMode"?`,
			`${file}: unknown key "constructor" (kept, but loom does not use it).`,
		]);
		// Settings not read from a file (an SDK caller's own object) have nothing said about them.
		expect(settingsWarnings({ ...value } as never)).toEqual([]);
	});

	it("names the file and the parse problem for invalid JSON", () => {
		const home = tempDir();
		writeFileSync(join(home, "settings.json"), '{ "provider": "openai", }');
		expect(() => loadSettings(home)).toThrow(SettingsError);
		expect(() => loadSettings(home)).toThrow(/Invalid JSON in .*settings\.json.*Fix the file or delete it/s);
	});

	it("names each invalid field with the value it got", () => {
		const home = tempDir();
		writeFileSync(join(home, "settings.json"), JSON.stringify({ thinking: "max", retry: { maxRetries: -1 } }));
		let message = "";
		try {
			loadSettings(home);
		} catch (error) {
			message = (error as Error).message;
		}
		expect(message).toContain("/thinking");
		expect(message).toContain('"max"');
		expect(message).toContain("/retry/maxRetries");
	});

	it("checks the compaction settings (whole non-negative token counts, a boolean switch)", () => {
		const home = tempDir();
		writeFileSync(join(home, "settings.json"), JSON.stringify({ compaction: { enabled: "yes", reserveTokens: -5, keepRecentTokens: 1.5 } }));
		expect(() => loadSettings(home)).toThrow(SettingsError);
		let message = "";
		try {
			loadSettings(home);
		} catch (error) {
			message = (error as Error).message;
		}
		expect(message).toContain("/compaction/enabled");
		expect(message).toContain("/compaction/reserveTokens");
		expect(message).toContain("/compaction/keepRecentTokens");
		writeFileSync(join(home, "settings.json"), JSON.stringify({ compaction: { reserveTokens: 8000, keepRecentTokens: 0 } }));
		expect(loadSettings(home)).toEqual({ compaction: { reserveTokens: 8000, keepRecentTokens: 0 } });
	});

	it("rejects a JSON value that is not an object", () => {
		const home = tempDir();
		writeFileSync(join(home, "settings.json"), "[1, 2]");
		expect(() => loadSettings(home)).toThrow(/must contain a JSON object/);
	});

	it("reports a settings path that cannot be read", () => {
		const home = tempDir();
		mkdirSync(join(home, "settings.json"));
		expect(() => loadSettings(home)).toThrow(/Cannot read .*settings\.json/);
	});
});
