import { type Key, useInput, useStdin } from "ink";
import { useCallback, useRef } from "react";

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
	// The latest handlers, read at each key: a stable listener is not taken off and put back on every render.
	const latest = useRef(keys);
	latest.current = keys;
	const onKey = useCallback((input: string, key: Key) => {
		const handlers = latest.current;
		if (key.escape) handlers.onEscape?.();
		if (!key.ctrl) return;
		if (input === "o") handlers.onExpand();
		else if (input === "l") handlers.onRedraw();
		else if (input === "z") handlers.onSuspend?.();
	}, []);
	useInput(onKey, { isActive: active && isRawModeSupported === true });
}
