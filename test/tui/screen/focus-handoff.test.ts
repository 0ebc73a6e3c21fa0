import { describe, expect, it } from "vitest";
import { FOCUS_OFF, FOCUS_ON } from "../../../src/tui/screen/attention-bell.js";
import { reclaimTerminal, releaseTerminal, setFocusReporting } from "../../../src/tui/screen/terminal-handoff.js";

/** A terminal that is not a TTY (no raw mode to switch) and keeps what is written to it. */
function terminal() {
	let written = "";
	const stdout = { write: (text: string) => ((written += text), true) } as unknown as NodeJS.WriteStream;
	const stdin = { isTTY: false } as unknown as NodeJS.ReadStream;
	return { streams: { stdin, stdout }, take: () => [written, (written = "")][0]! };
}

describe("a terminal handed to the editor or the shell", () => {
	it("stops reporting focus while away and reports it again once back, where the screen had asked for it", () => {
		const { streams, take } = terminal();
		setFocusReporting(streams.stdout, true);
		expect(take()).toBe(FOCUS_ON);
		releaseTerminal(streams);
		expect(take()).toContain(FOCUS_OFF);
		reclaimTerminal(streams);
		expect(take()).toContain(FOCUS_ON);
		setFocusReporting(streams.stdout, false);
		take();
		releaseTerminal(streams);
		reclaimTerminal(streams);
		const after = take();
		expect(after).not.toContain(FOCUS_ON);
		expect(after).not.toContain(FOCUS_OFF);
	});
});
