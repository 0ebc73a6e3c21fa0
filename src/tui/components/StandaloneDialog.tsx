import { useInput, useStdin } from "ink";
import { type Dialog, dismiss } from "../dialogs/index.js";
import { useTerminalSize } from "../hooks/index.js";
import { DialogHost } from "./DialogHost.js";

export interface StandaloneDialogProps {
	/** The one dialog to show; the caller unmounts once it is answered. */
	dialog: Dialog;
	/** Ctrl+C: told before the dialog closes with no answer, so the caller can exit as interrupted. */
	onInterrupt(): void;
}

/** A dialog on its own, before any screen exists (`loom -r` choosing a session). */
export function StandaloneDialog({ dialog, onInterrupt }: StandaloneDialogProps) {
	const { columns, rows } = useTerminalSize();
	const { isRawModeSupported } = useStdin();
	useInput(
		(input, key) => {
			if (key.ctrl && input === "c") onInterrupt();
			// Ctrl+D cancels, as at a shell prompt.
			if (key.ctrl && input === "d") dismiss(dialog);
		},
		{ isActive: isRawModeSupported === true },
	);
	return <DialogHost dialog={dialog} width={columns} maxRows={Math.max(4, rows - 1)} active />;
}
