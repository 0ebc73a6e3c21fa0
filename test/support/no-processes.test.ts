// The unit project's promise: its tests start no process and no server. Its setup refuses both, pointing at
// the list of process tests, so a new test that needs either is moved there instead of slowing the quick loop.
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { PROCESS_TESTS } from "../../vitest.config.js";

const WHERE = /run in the "process" project: add the file to PROCESS_TESTS in vitest\.config\.ts/;

describe("the unit project", () => {
	it("refuses to start a process, naming where such a test belongs", () => {
		expect(() => spawn(process.execPath, ["-e", "0"])).toThrow(WHERE);
		expect(() => execFileSync(process.execPath, ["-e", "0"])).toThrow(/started a process \(child_process\.execFileSync\)/);
	});

	it("refuses to start a server", () => {
		const server = createServer();
		expect(() => server.listen(0, "127.0.0.1")).toThrow(/started a server/);
		expect(server.listening).toBe(false);
	});

	it("lists process tests that exist", () => {
		expect(PROCESS_TESTS.filter((file) => !existsSync(new URL(`../../${file}`, import.meta.url)))).toEqual([]);
	});
});
