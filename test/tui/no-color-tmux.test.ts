// NO_COLOR (https://no-color.org) in a real terminal: the screen adds no colour, and keeps the styles that carry
// meaning without it (the editor's inverse cursor, bold text). FORCE_COLOR wins over it, as chalk reads it.
import { describe, expect, it } from "vitest";
import { useLoomInTmux } from "../support/loom-in-tmux.js";
import { hasTmux } from "../support/tmux-terminal.js";

/** The SGR parameters on a styled screen capture that set a colour (foreground, background, 256 or true colour). */
function colourCodes(screen: string): string[] {
	const codes: string[] = [];
	for (const [, body] of screen.matchAll(/\u001b\[([0-9;:]*)m/g)) {
		const params = body!.split(";");
		for (let i = 0; i < params.length; i++) {
			const code = Number(params[i]!.split(":")[0]);
			if ((code >= 30 && code <= 49) || (code >= 90 && code <= 107)) codes.push(params[i]!);
			if ((code === 38 || code === 48) && !params[i]!.includes(":")) i += params[i + 1] === "5" ? 2 : 4;
		}
	}
	return codes.filter((code) => code !== "39" && code !== "49");
}

describe.skipIf(!hasTmux())("colour in the screen (tmux)", () => {
	const { server, open } = useLoomInTmux("loom-colour");

	/** Starts the screen with `env`, runs one prompt whose answer has bold text after a bash call, and returns the styled screen. */
	async function answeredScreen(env: Record<string, string>): Promise<string> {
		const { terminal } = open({ env });
		await terminal.waitForScreen((text) => text.includes("ready"), "the editor");
		server.enqueue({ toolCalls: [{ id: "c1", name: "bash", arguments: { command: "echo listed" } }] }, { text: "It is **done** now." });
		await terminal.typeLine("go");
		await terminal.waitForScreen((text) => text.includes("It is done now.") && text.includes("ready"), "the answer");
		return terminal.screen(true);
	}

	it("is there by default", async () => {
		const screen = await answeredScreen({});
		expect(colourCodes(screen)).not.toEqual([]);
	});

	it("is left out with NO_COLOR set, while bold text and the inverse cursor stay", async () => {
		const screen = await answeredScreen({ NO_COLOR: "1" });
		expect(colourCodes(screen)).toEqual([]);
		expect(screen).toMatch(/\u001b\[[0-9;]*\b1[;m][^]*done/);
		expect(screen).toMatch(/\u001b\[[0-9;]*\b7m/);
	});

	it("comes back when FORCE_COLOR is set as well", async () => {
		const screen = await answeredScreen({ NO_COLOR: "1", FORCE_COLOR: "1" });
		expect(colourCodes(screen)).not.toEqual([]);
	});
});
