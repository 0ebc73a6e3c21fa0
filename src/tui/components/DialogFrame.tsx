import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { stripToOneLine } from "../../core/index.js";
import type { DialogChrome } from "../dialogs/index.js";
import { firstThatFits } from "../text/index.js";

export interface DialogFrameProps {
	/** The question, on one row (cut to the width; control characters removed). */
	title: string;
	/**
	 * The keys this dialog takes, dimmed under the frame, e.g. "enter choose · esc cancel"; or its forms from the
	 * longest to the shortest, of which the first that fits the width is shown.
	 */
	hint: string | readonly string[];
	/** Which optional rows (margin, hint) there is room for; from dialog-layout. */
	chrome: DialogChrome;
	width: number;
	children?: ReactNode;
}

/** The frame every dialog shares: a bordered box with the title on top and the key hint below. */
export function DialogFrame({ title, hint, chrome, width, children }: DialogFrameProps) {
	return (
		<Box flexDirection="column" width={width} marginTop={chrome.margin}>
			<Box flexDirection="column" borderStyle="round" borderColor="cyan">
				<Text wrap="truncate-end" bold>
					{stripToOneLine(title) || " "}
				</Text>
				{children}
			</Box>
			{chrome.hint ? (
				<Text wrap="truncate-end" dimColor>
					{typeof hint === "string" ? hint : firstThatFits(hint, width)}
				</Text>
			) : null}
		</Box>
	);
}
