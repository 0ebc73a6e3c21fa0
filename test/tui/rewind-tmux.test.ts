// /rewind and /tree in the real screen (tmux): the pickers come up, Enter chooses, the files go back, the prompt
// returns to the editor, and /tree switches back to the branch the rewind left.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useLoomInTmux } from "../support/loom-in-tmux.js";
import { type TmuxTerminal, hasTmux } from "../support/tmux-terminal.js";

describe.skipIf(!hasTmux())("rewinding in the screen (tmux)", () => {
	const { server, workspace, open } = useLoomInTmux("loom-rewind");
	let terminal: TmuxTerminal;
	let cwd: string;

	beforeAll(() => {
		const ws = workspace();
		cwd = ws.cwd;
		writeFileSync(join(cwd, "app.txt"), "version 1\n");
		({ terminal } = open({ workspace: ws, rows: 34, checkpoints: true }));
	});

	it("/rewind puts the files back and the prompt in the editor; /tree switches back to the branch it left", async () => {
		await terminal.waitForScreen((text) => text.includes("ready"), "the editor and the footer");
		server.enqueue(
			{ toolCalls: [{ id: "b", name: "bash", arguments: { command: "echo 'version 2' > app.txt && echo made > made.txt" } }] },
			{ text: "Bumped the version." },
		);
		await terminal.typeLine("bump the version");
		await terminal.waitForScreen((text) => text.includes("Bumped the version.") && text.includes("ready"), "the answer");
		expect(readFileSync(join(cwd, "app.txt"), "utf8")).toBe("version 2\n");

		await terminal.typeLine("/rewind");
		await terminal.waitForScreen((text) => text.includes("Rewind to before which prompt?") && text.includes("bump the version"), "the prompt picker");
		terminal.sendKeys("Enter");
		await terminal.waitForScreen((text) => text.includes("What goes back?") && text.includes("Restore files and conversation"), "the scope picker");
		terminal.sendKeys("Enter");
		const rewound = await terminal.waitForScreen((text) => text.includes("Rewound the conversation"), "the rewind's notices");
		expect(rewound).toMatch(/Files: 1 restored, 1 deleted \(app\.txt, made\.txt\)/);
		expect(readFileSync(join(cwd, "app.txt"), "utf8")).toBe("version 1\n");
		// The prompt is back in the editor: Enter sends it again, on a new branch.
		server.enqueue({ text: "Second try." });
		terminal.sendKeys("Enter");
		await terminal.waitForScreen((text) => text.includes("Second try.") && text.includes("ready"), "the second answer");

		await terminal.typeLine("/tree");
		const tree = await terminal.waitForScreen((text) => text.includes("Switch to which branch?"), "the tree picker");
		expect(tree).toMatch(/├─ bump the version/);
		expect(tree).toMatch(/└─ ● bump the version/);
		terminal.sendKeys("Up");
		terminal.sendKeys("Enter");
		await terminal.waitForScreen((text) => text.includes("Switched branch: 4 messages"), "the switch");
		// The branch's answer says the version was bumped, but only the conversation switched, as the screen says.
		await terminal.waitForScreen((text) => text.includes("Switched the conversation only: the files stay as they are."), "the files' notice");
		expect(readFileSync(join(cwd, "app.txt"), "utf8")).toBe("version 1\n");
	});
});
