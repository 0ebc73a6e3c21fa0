// A write to the session file that fails (disk full) must not cost more than the entry being written.
import * as fs from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Message } from "../../../src/core/index.js";
import { loadSessionFile, SessionStore } from "../../../src/core/session/index.js";
import { tempDir } from "../../support/temp-dir.js";

// The real writeSync, unless a test scripts the next calls: "half" writes half and returns that count (a short
// write, as on a filling disk), "none" fails without writing.
let failNext: ("none" | "half")[] = [];
vi.mock("node:fs", async (importOriginal) => {
	const real = await importOriginal<typeof import("node:fs")>();
	const writeSync = (fd: number, buffer: Buffer, offset = 0, ...rest: unknown[]) => {
		const mode = failNext.shift();
		if (mode === "half") {
			return real.writeSync(fd, buffer, offset, Math.floor((buffer.length - offset) / 2));
		}
		if (mode === "none") throw Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
		return (real.writeSync as (...args: unknown[]) => number)(fd, buffer, offset, ...rest);
	};
	return { ...real, default: { ...real, writeSync }, writeSync };
});

const user = (text: string) => ({ type: "message" as const, message: { role: "user" as const, content: text, timestamp: 1 } });

afterEach(() => {
	failNext = [];
});

describe("session file writes that fail", () => {
	it("a torn write costs only that entry: the next one starts on a new line", async () => {
		const store = SessionStore.create({ home: tempDir(), cwd: "/p" });
		store.append(user("one"));
		failNext = ["half", "none"];
		expect(() => store.append(user("two"))).toThrow(/ENOSPC/);
		store.append(user("three"));
		const loaded = await loadSessionFile(store.file!);
		expect(loaded.entries.map((e) => (e.type === "message" ? (e.message as Message).content : e.type))).toEqual(["one", "three"]);
		expect(loaded.warnings).toHaveLength(1);
		expect(fs.readFileSync(store.file!, "utf8")).toMatch(/\n\{"type":"message"[^\n]*"three"/);
	});

	it("a first write that fails keeps the header and the waiting model entry for the next write", async () => {
		const store = SessionStore.create({ home: tempDir(), cwd: "/p" });
		store.append({ type: "model_change", provider: "openai", modelId: "m" });
		failNext = ["none"];
		expect(() => store.append(user("one"))).toThrow(/ENOSPC/);
		store.append(user("two"));
		const loaded = await loadSessionFile(store.file!);
		expect(loaded.header.id).toBe(store.id);
		// "one" never reached the file; the model entry that waited for it was written with "two".
		expect(loaded.entries.map((e) => (e.type === "message" ? (e.message as Message).content : e.type))).toEqual(["model_change", "two"]);
		expect(loaded.warnings).toHaveLength(0);
	});
});
