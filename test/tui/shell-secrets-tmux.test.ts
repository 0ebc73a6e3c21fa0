// End to end in a real terminal: what `!!command` adds to the next prompt is masked like tool output, so a
// secret-looking environment value it prints reaches neither the model nor the session file.
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { useLoomInTmux } from "../support/loom-in-tmux.js";
import { sessionFiles } from "../support/loom-process.js";
import { type TmuxTerminal, hasTmux } from "../support/tmux-terminal.js";

const SECRET = "supersecretvalue123";

describe.skipIf(!hasTmux())("!!command and secrets in a terminal (tmux)", () => {
	const { server, open } = useLoomInTmux("loom-shell-secrets");
	let terminal: TmuxTerminal;
	let home: string;

	beforeAll(() => {
		({ terminal, home } = open({ env: { MY_API_TOKEN: SECRET, SHELL: "/bin/sh" } }));
	});

	it("masks a secret in !! output on the screen, in what the model gets and in the session file", async () => {
		await terminal.waitForScreen((text) => text.includes("Ask loom") && text.includes("ready"), "the editor");
		await terminal.typeLine("!!echo token=$MY_API_TOKEN");
		const shown = await terminal.waitForScreen((t) => t.includes("added to your next prompt") && t.includes("token="), "the command's output");
		expect(shown).toContain("token=***");
		expect(shown).not.toContain(SECRET);

		server.enqueue({ text: "Noted." });
		await terminal.typeLine("is the token set?");
		await terminal.waitForScreen((t) => t.includes("Noted.") && t.includes("ready"), "the answer");
		const sent = JSON.stringify(server.requests[0]!.body.messages);
		expect(sent).toContain("The user ran `echo token=$MY_API_TOKEN` (exit code 0)");
		expect(sent).toContain("token=***");
		expect(sent).not.toContain(SECRET);
		const [file] = sessionFiles(home);
		expect(readFileSync(file!, "utf8")).toContain("token=***");
		expect(readFileSync(file!, "utf8")).not.toContain(SECRET);

		terminal.sendKeys("C-d");
		await terminal.waitForScreen((t) => t.includes("[loom exited with 0]"), "loom exiting");
	});
});
