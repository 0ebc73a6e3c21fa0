import { Box, Text } from "ink";
import { toolResultLines } from "../tool-result-lines.js";
import { toolRowHeader } from "../tool-row-text.js";
import type { ToolRunView } from "../view-model.js";
import { StyledLines } from "./StyledLines.js";

export interface ToolRowProps {
	run: ToolRunView;
	/** Clock for the spinner and the elapsed time of a row still working. */
	now: number;
	/** Rows allowed under the header. */
	maxResultLines: number;
	/** In the live area every line is cut to one terminal row, so the area's height is known. */
	live?: boolean;
}

export function ToolRow({ run, now, maxResultLines, live = false }: ToolRowProps) {
	return (
		<Box flexDirection="column">
			<Text wrap="truncate-end">{toolRowHeader(run, now)}</Text>
			<StyledLines lines={toolResultLines(run, maxResultLines)} indent={2} truncate={live} />
		</Box>
	);
}
