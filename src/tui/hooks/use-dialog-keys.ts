import type { Key } from "ink";
import { useRef } from "react";
import { type DialogKey, dialogKeys } from "../dialogs/index.js";
import { useKeys } from "./use-keys.js";

/** A dialog's keys, as DialogKey actions (paste markers handled here), while `active`. */
export function useDialogKeys(onKey: (key: DialogKey) => void, active: boolean): void {
	const pasting = useRef(false);
	useKeys((input: string, key: Key) => {
		for (const action of dialogKeys(input, key, pasting.current)) {
			if (action.type === "pasteStart" || action.type === "pasteEnd") pasting.current = action.type === "pasteStart";
			else if (action.type !== "none") onKey(action);
		}
	}, active);
}
