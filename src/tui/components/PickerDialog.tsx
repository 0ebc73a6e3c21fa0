import { Box, Text } from "ink";
import { useCallback, useEffect, useMemo } from "react";
import { stripToOneLine } from "../../core/index.js";
import type { DialogKey, SelectDialog } from "../dialogs/index.js";
import {
	bodyStart,
	pickerLayout,
	pickerHints,
	pickerRows,
	wrappedChoiceRows,
	choiceKeys,
	initialPicker,
	matchingChoices,
	pickerStep,
} from "../dialogs/index.js";
import { useDialogKeys, useRefState } from "../hooks/index.js";
import { styledLineText } from "../transcript/index.js";
import { wrapRows } from "../text/index.js";
import { DialogFrame } from "./DialogFrame.js";

export interface PickerDialogProps {
	/** The question: title, optional body and filter, the choices; `dialog.finish` gets the answer. */
	dialog: SelectDialog;
	width: number;
	/** Terminal rows the whole dialog may take; a long body is cut and the choices scroll. */
	maxRows: number;
	/** Takes keys (false without a terminal, or while something else has the keyboard). */
	active: boolean;
	/** Called with the rows the dialog takes, so the screen can size the live area above it. */
	onHeightChange?(rows: number): void;
}

/** `fn` remembering its last answer: the matches are asked for on every render and key, the query changes less often. */
function lastOf<R>(fn: (query: string) => R): (query: string) => R {
	let last: { query: string; result: R } | undefined;
	return (query) => {
		if (last?.query !== query) last = { query, result: fn(query) };
		return last.result;
	};
}

/** A list to choose from: arrows, PageUp/PageDown, Home/End, Enter chooses, Esc dismisses; typing filters when asked. */
export function PickerDialog({ dialog, width, maxRows, active, onHeightChange }: PickerDialogProps) {
	const { options, choices } = dialog;
	const filter = options.filter === true;
	// The body wrapped inside the frame's borders, never cut at the side: an approval shows a command whole.
	const body = useMemo(
		() =>
			(options.body ?? []).flatMap((line) =>
				wrapRows(styledLineText(line), Math.max(1, width - 2)).map((text) => ({ text, changed: line.style === "added" || line.style === "removed" })),
			),
		[options.body, width],
	);
	// A list that does not filter answers to one key per choice (the choices then keep their order), and its
	// descriptions may wrap (it shows every choice, so the rows they take are known before the layout).
	const keys = useMemo(() => (filter ? undefined : choiceKeys(choices.map((choice) => stripToOneLine(choice.label)))), [filter, choices]);
	const wrappedRows = useMemo(() => (filter ? undefined : wrappedChoiceRows(choices, keys, width)), [filter, choices, keys, width]);
	const layoutFor = useCallback(
		(count: number) => pickerLayout({ maxRows, bodyLines: body.length, choices: count, filter, ...(wrappedRows === undefined ? {} : { wrappedRows }) }),
		[maxRows, body.length, filter, wrappedRows],
	);
	const [state, stateRef, setState] = useRefState(() => initialPicker(options.initialIndex, choices.length, layoutFor(choices.length).choiceRows));
	const matchesFor = useMemo(() => lastOf((query: string) => matchingChoices(choices, query)), [choices]);
	const matches = matchesFor(state.query);
	const layout = layoutFor(matches.length);

	const onKey = useCallback(
		(key: DialogKey) => {
			const current = stateRef.current;
			const found = matchesFor(current.query);
			const rows = layoutFor(found.length).choiceRows;
			const outcome = pickerStep(current, key, found.length, rows, filter, keys);
			if (outcome.type === "choose") dialog.finish(found[outcome.index]?.choice.value);
			else if (outcome.type === "dismiss") dialog.finish(undefined);
			else if (outcome.state !== current) setState(outcome.state);
		},
		[stateRef, matchesFor, layoutFor, filter, keys, dialog, setState],
	);
	useDialogKeys(onKey, active);
	useEffect(() => {
		onHeightChange?.(layout.height);
	}, [layout.height, onHeightChange]);

	const start = bodyStart(
		body.map((row) => row.changed),
		layout.bodyRows,
	);
	const rows = pickerRows({ matches, top: state.top, selected: state.selected, choiceRows: layout.choiceRows, keys, width, wrap: layout.wrapChoices });
	const escape = options.approval ? "deny and stop" : undefined;
	const hints = pickerHints({ keys, filter, selected: state.selected, matches: matches.length, choiceRows: layout.choiceRows, ...(escape ? { escape } : {}) });
	return (
		<DialogFrame title={options.title} hint={hints} chrome={layout.chrome} width={width}>
			{body.slice(start, start + layout.bodyRows).map((row, index) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: rows are positions
				<Text key={index} wrap="truncate-end">
					{row.text}
				</Text>
			))}
			{layout.bodyCutRow ? <Text dimColor>… {layout.bodyHidden} more lines</Text> : null}
			{filter ? (
				<Text wrap="truncate-end">
					<Text color="cyan">filter: </Text>
					{state.query === "" ? <Text dimColor>type to narrow the list</Text> : stripToOneLine(state.query)}
				</Text>
			) : null}
			{rows.length === 0 ? <Text dimColor>no match</Text> : null}
			<Box flexDirection="column">
				{rows.flatMap(({ index, selected, key, label, description, more = [] }) => [
					<Text key={index} wrap="truncate-end">
						<Text color="cyan">{selected ? "› " : "  "}</Text>
						{keys ? <Text color="cyan" dimColor={!selected}>{`[${key}] `}</Text> : null}
						<Text color={selected ? "cyan" : undefined} bold={selected}>
							{label || " "}
						</Text>
						{description ? <Text dimColor>{description}</Text> : null}
					</Text>,
					...more.map((text, row) => (
						<Text key={`${index}.${row}`} dimColor wrap="truncate-end">
							{text}
						</Text>
					)),
				])}
			</Box>
		</DialogFrame>
	);
}
