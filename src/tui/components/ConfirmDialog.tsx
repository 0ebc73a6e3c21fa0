import { Text } from "ink";
import { useCallback, useEffect, useMemo } from "react";
import { stripControls } from "../../core/index.js";
import type { DialogKey, ConfirmDialog as ConfirmRequest } from "../dialogs/index.js";
import { textBlockLayout } from "../dialogs/index.js";
import { useDialogKeys, useRefState } from "../hooks/index.js";
import { wrapRows } from "../text/index.js";
import { DialogFrame } from "./DialogFrame.js";

export interface ConfirmDialogProps {
	/** The question and its optional message; `dialog.finish(true)` only on an explicit yes. */
	dialog: ConfirmRequest;
	width: number;
	/** Terminal rows the whole dialog may take; a long message is cut. */
	maxRows: number;
	/** Takes keys (false without a terminal). */
	active: boolean;
	/** Called with the rows the dialog takes. */
	onHeightChange?(rows: number): void;
}

const CONFIRM_HINTS = ["y yes · n no · ←→ move · enter choose · esc no", "y/n · ←→ enter · esc no", "y/n · esc no"];

/** Yes or no: y / n answer at once; arrows move between the two and Enter takes the highlighted one (No at first); Esc is no. */
export function ConfirmDialog({ dialog, width, maxRows, active, onHeightChange }: ConfirmDialogProps) {
	const [yes, yesRef, setYes] = useRefState(() => false);
	const lines = useMemo(() => (dialog.message ? wrapRows(stripControls(dialog.message).trimEnd(), Math.max(1, width - 2)) : []), [dialog.message, width]);
	const layout = textBlockLayout({ maxRows, lines: lines.length, fixed: 1 });

	const onKey = useCallback(
		(key: DialogKey) => {
			if (key.type === "text" && /^y$/i.test(key.text)) dialog.finish(true);
			else if (key.type === "text" && /^n$/i.test(key.text)) dialog.finish(false);
			else if (key.type === "enter") dialog.finish(yesRef.current);
			else if (key.type === "dismiss") dialog.finish(false);
			else if (key.type === "home") setYes(true);
			else if (key.type === "end") setYes(false);
			else if (["left", "right", "up", "down"].includes(key.type)) setYes(!yesRef.current);
		},
		[dialog, yesRef, setYes],
	);
	useDialogKeys(onKey, active);
	useEffect(() => {
		onHeightChange?.(layout.height);
	}, [layout.height, onHeightChange]);

	return (
		<DialogFrame title={dialog.title} hint={CONFIRM_HINTS} chrome={layout.chrome} width={width}>
			{lines.slice(0, layout.shown).map((line, index) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: rows are positions
				<Text key={index} wrap="truncate-end">
					{line === "" ? " " : line}
				</Text>
			))}
			{layout.cutRow ? <Text dimColor>… {layout.hidden} more lines</Text> : null}
			<Text>
				<Text inverse={yes} color={yes ? "green" : undefined}>
					{" Yes "}
				</Text>
				{"  "}
				<Text inverse={!yes} color={yes ? undefined : "red"}>
					{" No "}
				</Text>
			</Text>
		</DialogFrame>
	);
}
