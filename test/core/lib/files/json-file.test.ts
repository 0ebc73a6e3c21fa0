// The JSON files loom keeps: configuration read checked and bounded (missing means none, anything else that is
// wrong names the file), and small state files read best effort and replaced whole.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseJson, readConfigText, readJsonState, writeJsonState } from "../../../../src/core/lib/files/json-file.js";
import { projectTree } from "../../../support/project-tree.js";
import { tempDir } from "../../../support/temp-dir.js";

describe("readConfigText", () => {
	it("reads the file's text without a byte-order mark", () => {
		const root = projectTree({ "settings.json": '\uFEFF{"a": 1}' });
		expect(readConfigText(join(root, "settings.json"), 1024)).toBe('{"a": 1}');
	});

	it("gives undefined for a file that does not exist", () => {
		expect(readConfigText(join(tempDir(), "missing.json"), 1024)).toBeUndefined();
	});

	it("throws a message naming the file for a folder or a file over the limit", () => {
		const root = projectTree({ "dir.json/": "", "big.json": "x".repeat(2048) });
		expect(() => readConfigText(join(root, "dir.json"), 1024)).toThrow(`Cannot read ${join(root, "dir.json")}: it is a directory, not a file.`);
		expect(() => readConfigText(join(root, "big.json"), 1024)).toThrow(new RegExp(`^${join(root, "big.json")} is 2\\.0 KB, over the 1\\.0 KB`));
	});
});

describe("parseJson", () => {
	it("parses text that starts with a byte-order mark", () => {
		expect(parseJson('\uFEFF{"a": [1]}')).toEqual({ a: [1] });
	});

	it("throws the parser's own SyntaxError, which names what it stumbled on", () => {
		expect(() => parseJson('{"a": }')).toThrow(SyntaxError);
		expect(() => parseJson('{"a": }')).toThrow(/'}'/);
	});
});

describe("JSON state files", () => {
	it("writes a value that reads back, replacing the file whole and creating its folder", () => {
		const file = join(tempDir(), "deeper", "state.json");
		writeJsonState(file, { first: true });
		writeJsonState(file, { second: [1, 2] });
		expect(readJsonState(file, 1024)).toEqual({ second: [1, 2] });
		expect(readFileSync(file, "utf8")).toBe('{"second":[1,2]}\n');
		expect(readdirSync(join(file, ".."))).toEqual(["state.json"]);
	});

	it("indents and sets the new file's permissions when asked", () => {
		const file = join(tempDir(), "trust.json");
		writeJsonState(file, { "/a": true }, { mode: 0o600, indent: "\t" });
		expect(readFileSync(file, "utf8")).toBe('{\n\t"/a": true\n}\n');
		expect(statSync(file).mode & 0o777).toBe(0o600);
	});

	it("reads undefined from a missing file, a file that is not JSON, and one over the limit", () => {
		const root = projectTree({ "broken.json": "{ nope", "big.json": JSON.stringify({ text: "x".repeat(2048) }) });
		expect(readJsonState(join(root, "missing.json"), 1024)).toBeUndefined();
		expect(readJsonState(join(root, "broken.json"), 1024)).toBeUndefined();
		expect(readJsonState(join(root, "big.json"), 1024)).toBeUndefined();
	});

	it("throws when the file cannot be written (its folder's place is taken by a file)", () => {
		const root = projectTree({ taken: "" });
		expect(() => writeJsonState(join(root, "taken", "state.json"), { lost: true })).toThrow();
		expect(readFileSync(join(root, "taken"), "utf8")).toBe("");
	});
});
