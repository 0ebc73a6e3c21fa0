import { useInput, useStdin } from "ink";

export interface ScreenKeys {
	/** Ctrl+O: show the latest tool output, summary, thinking or shell output in full. */
	onExpand(): void;
	/** Ctrl+L: clear the terminal and draw the transcript and the screen again. */
	onRedraw(): void;
	/** Ctrl+Z: suspend loom to the shell (`fg` brings it back). */
	onSuspend?(): void;
	/** Esc, besides what the editor or a dialog does with it (stops a `!command`). */
	onEscape?(): void;
}

/**
 * The screen's own keys, whatever has the keyboard (the editor or a dialog): neither of those binds them.
 * Listens only where Ink can read keys (raw mode supported).
 */
export function useScreenKeys(keys: ScreenKeys, active: boolean): void {
	const { isRawModeSupported } = useStdin();
	useInput(
		(input, key) => {
			if (key.escape) keys.onEscape?.();
			if (!key.ctrl) return;
			if (input === "o") keys.onExpand();
			else if (input === "l") keys.onRedraw();
			else if (input === "z") keys.onSuspend?.();
		},
		{ isActive: active && isRawModeSupported === true },
	);
}
