// Opening a session to continue it (loom -c, -r, --session, /resume) opens and reads its file once.
import * as fs from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { SessionStore } from "../../../src/core/session/index.js";
import { opened } from "../../support/open-spy.js";
import { tempDir } from "../../support/temp-dir.js";
import { user } from "./session-fixtures.js";

vi.mock("node:fs", async (importOriginal) => (await import("../../support/open-spy.js")).withOpenSpy(await importOriginal()));

describe("SessionStore.open", () => {
	it("opens the session file once, and still knows whether its last line was torn", async () => {
		const store = SessionStore.create({ home: tempDir(), cwd: "/p" });
		store.append({ type: "message", message: user("one") });
		store.close();
		const file = store.file!;
		fs.appendFileSync(file, '{"type":"message","id":"torn"');

		opened.length = 0;
		const reopened = await SessionStore.open(file);
		expect(opened.filter((path) => path === file)).toHaveLength(1);
		expect(reopened.warnings.join("\n")).toMatch(/last line \(3\) is incomplete/);

		// The torn line is left alone: the next entry starts on a line of its own.
		reopened.append({ type: "message", message: user("two") });
		reopened.close();
		const lines = fs.readFileSync(file, "utf8").split("\n");
		expect(lines[2]).toBe('{"type":"message","id":"torn"');
		expect(JSON.parse(lines[3]!).message.content).toBe("two");
	});
});
