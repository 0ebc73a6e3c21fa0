import { type Key, useInput, useStdin } from "ink";
import { useCallback, useLayoutEffect, useRef } from "react";

export type KeyHandler = (input: string, key: Key) => void;

/**
 * Ink's input hook with the handler and `active` of the frame on screen. Ink attaches a new handler in a passive
 * effect, which can run after a key typed against the frame just drawn (a Ctrl+C as "Working" appears would reach
 * the handler of the idle editor). The listener here stays attached; the handler and `active` it reads are updated
 * in the commit that draws the frame, before any key can arrive. Listens only where Ink can read keys (raw mode).
 */
export function useKeys(handler: KeyHandler, active: boolean): void {
	const { isRawModeSupported } = useStdin();
	const latest = useRef({ handler, active });
	useLayoutEffect(() => {
		latest.current = { handler, active };
	});
	const onKey = useCallback<KeyHandler>((input, key) => {
		if (latest.current.active) latest.current.handler(input, key);
	}, []);
	useInput(onKey, { isActive: isRawModeSupported === true });
}
