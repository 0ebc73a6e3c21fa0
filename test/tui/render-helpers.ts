// Helpers for Ink tests: typing keys, plain frames, and waiting for a frame to show something.
import { stripVTControlCharacters } from "node:util";
import { waitFor } from "../support/wait-for.js";

export function plain(frame: string | undefined): string {
	return stripVTControlCharacters(frame ?? "");
}

/**
 * Writes each key as its own chunk, as a terminal delivers keystrokes, and lets Ink take it before the next one
 * (a lone Esc waits one turn of the event loop for a following byte). Does not wait for the screen: a test waits
 * for what it expects to see, with waitForFrame or `await expect.poll(frame)`.
 */
export async function typeKeys(stdin: { write(data: string): unknown }, ...keys: string[]): Promise<void> {
	for (const key of keys) {
		stdin.write(key);
		await new Promise((resolve) => setImmediate(resolve));
	}
}

/** Waits until the plain frame passes `check`, and returns it; on timeout the failure shows the last frame. */
export function waitForFrame(lastFrame: () => string | undefined, check: (frame: string) => boolean, timeoutMs?: number): Promise<string> {
	return waitFor(() => plain(lastFrame()), check, { timeoutMs, what: "the frame", show: (frame) => `Last frame:\n${frame}` });
}

/** Lines of a frame that contain `text`. */
export function linesWith(frame: string, text: string): string[] {
	return frame.split("\n").filter((line) => line.includes(text));
}

/**
 * What a terminal would show for a screen rendered in Ink's debug mode (each write a whole live frame):
 * the transcript the App printed (from its last clear on), then the latest live frame. Pass `print` to App.
 */
export function screenOf(lastFrame: () => string | undefined): { print: (text: string) => void; frame: () => string; printed: () => string } {
	const printed: string[] = [];
	return {
		print: (text) => {
			printed.push(text);
		},
		frame: () => {
			const all = printed.join("");
			const cleared = all.lastIndexOf("\u001b[2J");
			return (cleared === -1 ? all : all.slice(cleared)) + (lastFrame() ?? "");
		},
		/** Everything printed into the scrollback so far, escape sequences included. */
		printed: () => printed.join(""),
	};
}
