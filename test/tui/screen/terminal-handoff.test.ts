// Ctrl+G: the prompt goes to the user's $EDITOR in a file and comes back from it, read as any file read on the
// user's behalf: checked to be a regular file, and bounded.
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { editInEditor, type TerminalStreams } from "../../../src/tui/screen/terminal-handoff.js";
import { tempDir } from "../../support/temp-dir.js";

/** Not a terminal: nothing to switch modes on; what loom writes to it is dropped. */
const terminal = { stdin: { isTTY: false }, stdout: { write: () => true } } as unknown as TerminalStreams;

const leftBehind: number[] = [];
afterEach(() => {
	for (const pid of leftBehind.splice(0)) {
		try {
			process.kill(pid, "SIGKILL");
		} catch {}
	}
});

function editorScript(body: string): string {
	const script = join(tempDir(), "editor.sh");
	writeFileSync(script, `#!/bin/sh\n${body}\n`);
	chmodSync(script, 0o755);
	return script;
}

describe("editing the prompt in $EDITOR", () => {
	it("returns the text the editor saved", () => {
		const editor = editorScript(`printf 'edited: ' > "$1.new"; cat "$1" >> "$1.new"; mv "$1.new" "$1"`);
		expect(editInEditor("hello", terminal, { PATH: process.env.PATH, EDITOR: editor })).toEqual({ text: "edited: hello" });
	});

	it("refuses a file the editor replaced by a FIFO at once, instead of waiting for a writer", () => {
		const dir = tempDir();
		// A writer that comes late (and is ended by the test if it still waits for a reader).
		const editor = editorScript(`rm "$1"; mkfifo "$1"; (sleep 2; echo late > "$1") & echo $! > ${join(dir, "writer.pid")}`);
		const started = Date.now();
		const outcome = editInEditor("hello", terminal, { PATH: process.env.PATH, EDITOR: editor });
		leftBehind.push(Number(readFileSync(join(dir, "writer.pid"), "utf8")));
		expect(Date.now() - started).toBeLessThan(1500);
		expect(outcome).toEqual({ error: expect.stringMatching(/^The edited prompt is not a regular file \(it is a FIFO/) });
	});
});
