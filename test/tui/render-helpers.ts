// Helpers for ink-testing-library tests: plain frames and waiting for a frame to show something.
import { stripVTControlCharacters } from "node:util";

export function plain(frame: string | undefined): string {
	return stripVTControlCharacters(frame ?? "");
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `check` passes (generous timeout: CI machines are slow), then returns the last frame. */
export async function waitFor(lastFrame: () => string | undefined, check: (frame: string) => boolean, timeoutMs = 5000): Promise<string> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const frame = plain(lastFrame());
		if (check(frame)) return frame;
		if (Date.now() > deadline) throw new Error(`Timed out waiting for the frame; last frame:\n${frame}`);
		await sleep(10);
	}
}

/** Lines of a frame that contain `text`. */
export function linesWith(frame: string, text: string): string[] {
	return frame.split("\n").filter((line) => line.includes(text));
}

/**
 * What a terminal would show for a screen rendered in Ink's debug mode (each write a whole live frame):
 * the transcript the App printed (from its last clear on), then the latest live frame. Pass `print` to App.
 */
export function screenOf(lastFrame: () => string | undefined): { print: (text: string) => void; frame: () => string } {
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
	};
}
