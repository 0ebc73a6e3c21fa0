import { Text } from "ink";
import stringWidth from "string-width";
import { showControls } from "../../core/index.js";
import type { SuggestionPopup } from "../hooks/index.js";

/** Rows of suggestions shown at most; the list scrolls with the highlight. */
export const SUGGESTION_ROWS = 8;

/** Labels longer than this push their description further instead of widening the column. */
const LABEL_COLUMN_MAX = 28;

/** Rows the popup takes: its items (or the row saying files are being looked for), and the key hint under items. */
export function suggestionHeight(popup: SuggestionPopup | undefined): number {
	if (!popup) return 0;
	const items = popup.list.items.length;
	return items === 0 ? 1 : Math.min(SUGGESTION_ROWS, items) + 1;
}

/** The key hint under every list (commands, files, paths): the highlighted item's position ("+": more may come), the keys. */
export function suggestionHint({ list, selected }: SuggestionPopup): string {
	return `${selected + 1}/${list.items.length}${list.pending ? "+" : ""} · tab/enter complete · esc close`;
}

export interface SuggestionRowsProps {
	popup: SuggestionPopup;
}

/** The completion popup under the editor: the highlighted row in cyan, descriptions dimmed. */
export function SuggestionRows({ popup }: SuggestionRowsProps) {
	const { list, selected } = popup;
	if (list.items.length === 0) {
		return (
			<Text dimColor wrap="truncate-end">
				{"  "}looking for files…
			</Text>
		);
	}
	const top = selected >= SUGGESTION_ROWS ? selected - SUGGESTION_ROWS + 1 : 0;
	const shown = list.items.slice(top, top + SUGGESTION_ROWS);
	// Descriptions line up in a column after the longest label shown (within reason).
	const labelWidth = Math.min(LABEL_COLUMN_MAX, Math.max(...shown.map((item) => stringWidth(item.label))));
	return (
		<>
			{shown.map((item, row) => {
				const active = top + row === selected;
				return (
					<Text key={`${top + row}`} wrap="truncate-end">
						<Text color="cyan">{active ? "› " : "  "}</Text>
						<Text color={active ? "cyan" : undefined} bold={active}>
							{showControls(item.label)}
						</Text>
						{item.description ? " ".repeat(Math.max(0, labelWidth - stringWidth(item.label))) : null}
						{item.description ? <Text dimColor>{`  ${item.description}`}</Text> : null}
					</Text>
				);
			})}
			<Text dimColor wrap="truncate-end">
				{`  ${suggestionHint(popup)}`}
			</Text>
		</>
	);
}
