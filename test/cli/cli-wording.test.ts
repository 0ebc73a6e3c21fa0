// What the command tells its user to set or run names its flags, though the messages are core's (core words them
// in the SDK's options unless told; test/layers/core-flag-words.test.ts keeps flags out of core). In-process.
import { afterAll, describe, expect, it } from "vitest";
import { runLoomInProcess as runLoom } from "../support/loom-in-process.js";
import { workspace } from "../support/temp-dir.js";

const KEYED = ["--provider", "openai", "--model", "scripted", "--api-key", "k"];

// Print and RPC modes send console output to stderr for the process; the unit files after this one share it.
const { log, info, debug } = console;
afterAll(() => Object.assign(console, { log, info, debug }));

describe("the command's wording of core's messages", () => {
	it("names --base-url for a base URL that can never work, and sends nothing", async () => {
		const result = await runLoom(["-p", ...KEYED, "--base-url", "foo", "hi"], workspace());
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(
			'Invalid base URL for openai: "foo" (not a URL; set by --base-url, the *_BASE_URL variable or models.json); use a full http:// or https:// URL such as http://localhost:11434/v1',
		);
	});

	it("names --list-models for an unknown model and --provider for an unknown provider", async () => {
		const ws = workspace();
		const model = await runLoom(["-p", "-m", "llama3.3:70b", "--api-key", "k", "hi"], ws);
		expect(model.code).toBe(2);
		expect(model.stderr).toMatch(/Unknown model "llama3\.3:70b"\..* loom --list-models shows the known ones\./);
		const provider = await runLoom(["-p", "-m", "mystery/x", "--api-key", "k", "hi"], ws);
		expect(provider.code).toBe(2);
		expect(provider.stderr).toMatch(/Unknown provider "mystery" in "mystery\/x" .*, or pass --provider\./);
	});

	it("names loom -r for a session id that matches none", async () => {
		const result = await runLoom(["-p", "--session", "ffffffff", ...KEYED, "hi"], workspace());
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/No session with an id starting with "ffffffff" under .*\. Run `loom -r` to list this directory's sessions\./);
	});

	it("names --no-session for a session that keeps no file (/session)", async () => {
		const input = `${JSON.stringify({ id: "s", type: "run_command", name: "/session" })}\n`;
		const result = await runLoom(["--mode", "rpc", "--no-session", ...KEYED, "--base-url", "http://127.0.0.1:9/v1"], { ...workspace(), input });
		const response = result.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line)).find((line) => line.id === "s");
		expect(response?.data.notices[0].text).toContain("Session file: not saved (--no-session)");
	});
});
