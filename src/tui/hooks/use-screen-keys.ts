import type { Key } from "ink";
import { useKeys } from "./use-keys.js";

export interface ScreenKeys {
	/** Ctrl+O: show the latest tool output, summary, thinking or shell output in full. */
	onExpand(): void;
	/** Ctrl+L: clear the terminal and draw the transcript and the screen again. */
	onRedraw(): void;
	/** Ctrl+Z: suspend loom to the shell (`fg` brings it back). */
	onSuspend?(): void;
	/** Ctrl+X: fold or unfold the todo list. */
	onToggleTodos?(): void;
	/** Esc, besides what the editor or a dialog does with it (stops a `!command`). */
	onEscape?(): void;
}

/** The screen's own keys, whatever has the keyboard (the editor or a dialog): neither of those binds them. */
export function useScreenKeys(keys: ScreenKeys, active: boolean): void {
	useKeys((input: string, key: Key) => {
		if (key.escape) keys.onEscape?.();
		if (!key.ctrl) return;
		if (input === "o") keys.onExpand();
		else if (input === "l") keys.onRedraw();
		else if (input === "z") keys.onSuspend?.();
		else if (input === "x") keys.onToggleTodos?.();
	}, active);
}
