// The editor's keys as a terminal sends them: through the screen's input filter (paste-filter.ts)
// into Ink and the editor, as in the running screen.
import { render } from "ink";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Editor } from "../../src/tui/components/Editor.js";
import { withPasteFilter } from "../../src/tui/editor/paste-filter.js";
import { typeKeys } from "./render-helpers.js";
import { TestStdin, TestStdout } from "./terminal-streams.js";

const ESC = "\u001b";
const ENTER = "\r";
const LEFT = `${ESC}[D`;
const BACKSPACE = "\u007f";
const DELETE = `${ESC}[3~`;
const CTRL_LEFT = `${ESC}[1;5D`;
const CTRL_RIGHT = `${ESC}[1;5C`;
const ALT_B = `${ESC}b`;
const ALT_F = `${ESC}f`;
const ALT_BACKSPACE = `${ESC}${BACKSPACE}`;
const KITTY_ALT_BACKSPACE = `${ESC}[127;3u`;
const CTRL_W = "\u0017";
const HOME = "\u0001";
/** Shift+Enter in xterm's modifyOtherKeys form, as tmux sends it. */
const XTERM_SHIFT_ENTER = `${ESC}[27;2;13~`;

const unmounts: Array<() => void> = [];
afterEach(() => {
	for (const unmount of unmounts.splice(0)) unmount();
});

/** The editor in a terminal; `send(...keys)` types the keys, then Enter, and resolves with the text sent. */
function terminalEditor() {
	const stdin = new TestStdin();
	const sent: string[] = [];
	const instance = render(
		<Editor running={false} width={60} maxRows={6} inputActive onSubmit={(text) => void sent.push(text)} onInterrupt={() => []} onExit={vi.fn()} onToggleThinking={vi.fn()} />,
		{ stdin: withPasteFilter(stdin as unknown as NodeJS.ReadStream), stdout: new TestStdout(60, 20) as unknown as NodeJS.WriteStream, debug: true, exitOnCtrlC: false, patchConsole: false },
	);
	unmounts.push(() => instance.unmount());
	return async (...keys: string[]): Promise<string | undefined> => {
		const before = sent.length;
		await typeKeys(stdin, ...keys, ENTER);
		await vi.waitFor(() => expect(sent.length).toBeGreaterThan(before));
		return sent.at(-1);
	};
}

describe("editor keys from a terminal", () => {
	it("Delete deletes the character after the cursor, Backspace the one before", async () => {
		const send = terminalEditor();
		expect(await send("abcd", LEFT, LEFT, DELETE)).toBe("abd");
		expect(await send("abcd", LEFT, LEFT, BACKSPACE)).toBe("acd");
	});

	it("Ctrl+Left and Ctrl+Right move by a word", async () => {
		const send = terminalEditor();
		expect(await send("one two three", CTRL_LEFT, "X")).toBe("one two Xthree");
		expect(await send("one two three", CTRL_LEFT, CTRL_LEFT, "X")).toBe("one Xtwo three");
		expect(await send("one two three", HOME, CTRL_RIGHT, "X")).toBe("oneX two three");
		expect(await send("one two three", HOME, CTRL_RIGHT, CTRL_RIGHT, "X")).toBe("one twoX three");
	});

	it("Alt+B and Alt+F move by a word", async () => {
		const send = terminalEditor();
		expect(await send("one two three", ALT_B, ALT_B, "X")).toBe("one Xtwo three");
		expect(await send("one two three", HOME, ALT_F, "X")).toBe("oneX two three");
	});

	it("Alt+Backspace deletes the word before the cursor; Ctrl+W back to the previous blank", async () => {
		const send = terminalEditor();
		expect(await send("cat /usr/local/bin", ALT_BACKSPACE)).toBe("cat /usr/local/");
		expect(await send("say hello world  ", ALT_BACKSPACE)).toBe("say hello ");
		expect(await send("cat /usr/local/bin", KITTY_ALT_BACKSPACE)).toBe("cat /usr/local/");
		expect(await send("cat /usr/local/bin", CTRL_W)).toBe("cat ");
	});

	it("takes keys typed faster than the screen reads them (one chunk) as keys: Backspace and Ctrl chords", async () => {
		const send = terminalEditor();
		expect(await send(`abc${BACKSPACE}d`)).toBe("abd");
		expect(await send(`world${HOME}hello `)).toBe("hello world");
	});

	it("takes xterm's form of Shift+Enter as a new line, never as text", async () => {
		const send = terminalEditor();
		expect(await send("first", XTERM_SHIFT_ENTER, "second")).toBe("first\nsecond");
	});
});
