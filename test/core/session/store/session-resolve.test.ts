import { writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { cwdFolderName, resolveSessionArgument, SessionStore, sessionIdFromFileName } from "../../../../src/core/session/index.js";
import { tempDir } from "../../../support/temp-dir.js";
import { user } from "../session-fixtures.js";

function session(home: string, cwd: string): SessionStore {
	const store = SessionStore.create({ home, cwd });
	store.append({ type: "message", message: user("hi") });
	store.close();
	return store;
}

describe("resolveSessionArgument", () => {
	it("takes an absolute or relative path as is", () => {
		const home = tempDir();
		const store = session(home, "/p");
		expect(resolveSessionArgument(store.file!, home, "/p")).toBe(store.file);
		expect(resolveSessionArgument(relative(home, store.file!), home, home)).toBe(store.file);
	});

	it("says so when a path does not exist", () => {
		const home = tempDir();
		expect(() => resolveSessionArgument("./nope.jsonl", home, home)).toThrow(`No session file at ${join(home, "nope.jsonl")}`);
	});

	it("finds a session by id prefix, in this directory first and then anywhere", () => {
		const home = tempDir();
		const here = session(home, "/p");
		const there = session(home, "/q");
		expect(resolveSessionArgument(here.id.slice(0, 8), home, "/p")).toBe(here.file);
		expect(resolveSessionArgument(there.id.slice(0, 8), home, "/p")).toBe(there.file);
		expect(sessionIdFromFileName(here.file!)).toBe(here.id);
	});

	it("reports an ambiguous prefix with the candidates, and an unknown one with guidance", () => {
		const home = tempDir();
		const a = session(home, "/p");
		const dir = join(home, "sessions", cwdFolderName("/p"));
		// A second id sharing the first's first character, to make a one-character prefix ambiguous.
		const twin = `${a.id[0]}0000000-0000-4000-8000-000000000000`;
		writeFileSync(join(dir, `2024-01-01T00-00-00-000Z_${twin}.jsonl`), "");
		expect(() => resolveSessionArgument(a.id[0]!, home, "/p")).toThrow(/ambiguous[\s\S]*Give more characters/);
		expect(() => resolveSessionArgument("zzzz", home, "/p")).toThrow(/No session with an id starting with "zzzz".*loom -r/);
	});
});
