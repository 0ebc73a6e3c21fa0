// `loom @notes.txt "summarise"` on the screen: the @file arguments go with the first prompt, each file read once.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { useLoomInTmux } from "../support/loom-in-tmux.js";
import { tempDir } from "../support/temp-dir.js";
import { hasTmux } from "../support/tmux-terminal.js";

const COUNT_OPENS = pathToFileURL(join(import.meta.dirname, "../support/count-opens.mjs")).href;

describe.skipIf(!hasTmux())("@file arguments on the screen (tmux)", () => {
	const { server, workspace, open } = useLoomInTmux("loom-initial-files");

	it("sends the files with the first prompt, shows what went along, and opens each file once", async () => {
		const ws = workspace();
		const notes = join(ws.cwd, "notes.txt");
		writeFileSync(notes, "alpha\n");
		const log = join(tempDir("loom-opens-"), "opens.log");
		writeFileSync(log, "");
		server.enqueue({ text: "Summarised." });
		const { terminal } = open({
			workspace: ws,
			args: ["@notes.txt", "summarise"],
			env: { NODE_OPTIONS: `--import=${COUNT_OPENS}`, LOOM_TEST_OPENS_LOG: log },
		});
		const text = await terminal.waitForScreen((t) => t.includes("Summarised.") && t.includes("ready"), "the answer");
		expect(text).toContain("› summarise @notes.txt");
		expect(text).toContain("attached notes.txt (5 B)");
		expect(JSON.stringify(server.requests.at(-1)?.body)).toContain(`<file name=\\"${notes}\\">\\nalpha\\n</file>`);
		expect(readFileSync(log, "utf8").split("\n").filter((path) => path === notes)).toHaveLength(1);
	});
});
