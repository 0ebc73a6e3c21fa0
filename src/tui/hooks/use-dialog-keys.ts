import { type Key, useInput, useStdin } from "ink";
import { useCallback, useRef } from "react";
import { type DialogKey, dialogKeys } from "../dialogs/dialog-keys.js";

/**
 * A dialog's keys, as DialogKey actions (paste markers handled here). Listens only while `active` and only
 * where Ink can read keys (raw mode supported): Ink's input hook throws otherwise.
 */
export function useDialogKeys(onKey: (key: DialogKey) => void, active: boolean): void {
	const { isRawModeSupported } = useStdin();
	const pasting = useRef(false);
	const handle = useCallback(
		(input: string, key: Key) => {
			for (const action of dialogKeys(input, key, pasting.current)) {
				if (action.type === "pasteStart" || action.type === "pasteEnd") pasting.current = action.type === "pasteStart";
				else if (action.type !== "none") onKey(action);
			}
		},
		[onKey],
	);
	useInput(handle, { isActive: active && isRawModeSupported === true });
}
