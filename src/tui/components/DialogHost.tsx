import type { Dialog } from "../dialogs/index.js";
import { ConfirmDialog } from "./ConfirmDialog.js";
import { InputDialog } from "./InputDialog.js";
import { PickerDialog } from "./PickerDialog.js";

export interface DialogHostProps {
	/** The dialog to show (the first of the queue). Each new dialog starts fresh. */
	dialog: Dialog;
	width: number;
	/** Terminal rows the dialog may take, so the screen stays shorter than the terminal. */
	maxRows: number;
	/** Takes keys: true when the screen has a terminal to read them from. */
	active: boolean;
	/** Called with the rows the dialog takes. */
	onHeightChange?(rows: number): void;
}

/** Shows one dialog, where the editor was, until it is answered. */
export function DialogHost({ dialog, ...rest }: DialogHostProps) {
	switch (dialog.kind) {
		case "select":
			return <PickerDialog key={dialog.id} dialog={dialog} {...rest} />;
		case "confirm":
			return <ConfirmDialog key={dialog.id} dialog={dialog} {...rest} />;
		case "input":
			return <InputDialog key={dialog.id} dialog={dialog} {...rest} />;
	}
}
