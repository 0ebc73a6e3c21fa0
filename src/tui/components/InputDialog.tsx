import { Text } from "ink";
import { useCallback, useEffect } from "react";
import { showControls } from "../../core/index.js";
import type { DialogKey, InputDialog as InputRequest } from "../dialogs/index.js";
import { textBlockLayout } from "../dialogs/index.js";
import * as edit from "../editor/index.js";
import { fieldWindow } from "../text/index.js";
import { useDialogKeys, useRefState } from "../hooks/index.js";
import { DialogFrame } from "./DialogFrame.js";

export interface InputDialogProps {
	/** The question, with an optional placeholder and initial text; `dialog.finish` gets the text. */
	dialog: InputRequest;
	width: number;
	/** Terminal rows the whole dialog may take. */
	maxRows: number;
	/** Takes keys (false without a terminal). */
	active: boolean;
	/** Called with the rows the dialog takes. */
	onHeightChange?(rows: number): void;
}

function step(state: edit.EditorState, key: DialogKey): edit.EditorState {
	switch (key.type) {
		case "text":
			return edit.insert(state, key.text);
		case "backspace":
			return edit.backspace(state);
		case "left":
			return edit.moveLeft(state);
		case "right":
			return edit.moveRight(state);
		case "home":
			return edit.moveLineStart(state);
		case "end":
			return edit.moveLineEnd(state);
		case "clear":
			return edit.deleteToLineStart(state);
		default:
			return state;
	}
}

/** One line of text: Enter accepts it (even empty), Esc dismisses; arrows, Home/End, Backspace and Ctrl+U edit. */
export function InputDialog({ dialog, width, maxRows, active, onHeightChange }: InputDialogProps) {
	const [state, stateRef, setState] = useRefState(() => edit.setText(edit.emptyEditor(), (dialog.options.initial ?? "").replace(/\r\n?|\n/g, " ")));
	const layout = textBlockLayout({ maxRows, lines: 0, fixed: 1 });

	const onKey = useCallback(
		(key: DialogKey) => {
			if (key.type === "enter") dialog.finish(stateRef.current.text);
			else if (key.type === "dismiss") dialog.finish(undefined);
			else setState(step(stateRef.current, key));
		},
		[dialog, stateRef, setState],
	);
	useDialogKeys(onKey, active);
	useEffect(() => {
		onHeightChange?.(layout.height);
	}, [layout.height, onHeightChange]);

	const field = fieldWindow(state.text, state.cursor, Math.max(1, width - 4));
	return (
		<DialogFrame title={dialog.title} hint="enter accept · esc cancel" chrome={layout.chrome} width={width}>
			<Text wrap="truncate-end">
				<Text color="cyan">› </Text>
				{state.text === "" ? (
					<>
						<Text inverse> </Text>
						<Text dimColor>{showControls(dialog.options.placeholder ?? "")}</Text>
					</>
				) : (
					<>
						{showControls(field.before)}
						<Text inverse>{showControls(field.at)}</Text>
						{showControls(field.after)}
					</>
				)}
			</Text>
		</DialogFrame>
	);
}
