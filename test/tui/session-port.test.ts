// The AgentSession must be usable as the screen's SessionPort as it is (checked by the type checker,
// `npx tsc -p tsconfig.test.json`); the runtime part checks the members the screen reads exist.
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { AgentSession } from "../../src/core/session/index.js";
import type { SessionPort } from "../../src/tui/session-port.js";

describe("SessionPort", () => {
	it("is satisfied structurally by AgentSession", () => {
		expectTypeOf<AgentSession>().toMatchTypeOf<SessionPort>();
		const accept = (port: SessionPort) => port.subscribe;
		const asPort = (session: AgentSession) => accept(session);
		expect(typeof asPort).toBe("function");
	});

	it("is how the screen learns about tools: nothing under src/tui imports src/tools", async () => {
		const tuiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src/tui");
		const toolsDir = path.resolve(tuiDir, "../tools");
		const files = (await fs.readdir(tuiDir, { recursive: true })).filter((file) => /\.tsx?$/.test(file));
		expect(files.length).toBeGreaterThan(10);
		for (const file of files) {
			const source = await fs.readFile(path.join(tuiDir, file), "utf8");
			for (const match of source.matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]*)"/g)) {
				const target = path.resolve(path.dirname(path.join(tuiDir, file)), match[1]!);
				expect(target.startsWith(toolsDir + path.sep) || target === toolsDir, `${file} imports ${match[1]}`).toBe(false);
			}
		}
	});
});
