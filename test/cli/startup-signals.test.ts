// A signal while print mode assembles its session (extensions load, the session opens) ends loom with the
// signal's exit code before any model request, leaving no session file behind. Extensions that take their time
// widen each window, and write a file once loom is inside it, so the signal lands there every time.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { serverFlags, sessionFiles, startLoom, useScriptedServer } from "../support/loom-process.js";
import { workspace } from "../support/temp-dir.js";
import { waitFor } from "../support/wait-for.js";

const server = useScriptedServer();

/** How long each extension holds loom up: long enough that the signal lands inside, short enough that a lost one lets the prompt go on. */
const HOLD_MS = 3000;

/** An extension that takes its time to load (its module awaits at the top level). */
const slowToLoad = (marker: string) => `import { writeFileSync } from "node:fs";
writeFileSync(${JSON.stringify(marker)}, "loading");
await new Promise((resolve) => setTimeout(resolve, ${HOLD_MS}));
export default function () {}
`;

/** An extension whose session listener holds the session's opening up (listeners are awaited). */
const slowToOpen = (marker: string) => `import { writeFileSync } from "node:fs";
export default function (loom) {
	loom.session.subscribe(async (event) => {
		if (event.type !== "session_open") return;
		writeFileSync(${JSON.stringify(marker)}, "opening");
		await new Promise((resolve) => setTimeout(resolve, ${HOLD_MS}));
	});
}
`;

const cases = [
	["SIGINT", 130],
	["SIGTERM", 143],
	["SIGHUP", 129],
] as const;

describe("a signal while print mode starts", () => {
	for (const [window, extension] of [
		["extensions load", slowToLoad],
		["the session opens", slowToOpen],
	] as const) {
		for (const mode of ["text", "json"] as const) {
			it.each(cases)(`${window} (${mode}): %s ends loom with exit %i, no model request, no session file`, async (signal, code) => {
				const ws = workspace();
				const marker = join(ws.cwd, "inside");
				writeFileSync(join(ws.cwd, "slow.mjs"), extension(marker));
				server.enqueue({ text: "should never be asked" });
				const modeArgs = mode === "json" ? ["--mode", "json"] : ["-p"];
				const run = startLoom([...modeArgs, "-e", "slow.mjs", ...serverFlags(server.openaiBaseUrl), "hello"], ws);
				await waitFor(() => existsSync(marker), Boolean, { what: "loom inside the slow extension" });
				run.child.kill(signal);
				const result = await run.done;
				expect({ code: result.code, signal: result.signal }).toEqual({ code, signal: null });
				expect(result.stderr).toBe("loom: interrupted\n");
				expect(server.requests).toHaveLength(0);
				expect(sessionFiles(ws.home)).toEqual([]);
			});
		}
	}
});
