import { Box, Text } from "ink";
import type { StyledLine } from "../../core/index.js";
import { toolRowHeader } from "../transcript/index.js";
import type { ToolRunView } from "../transcript/index.js";
import { StyledLines } from "./StyledLines.js";

export interface ToolRowProps {
	run: ToolRunView;
	/** Clock for the spinner and the elapsed time of a row still working. */
	now: number;
	/** The rows under the header, as the row's tool drew them (toolRowLines). */
	lines: StyledLine[];
	/** In the live area every line is cut to one terminal row, so the area's height is known. */
	live?: boolean;
	/** Columns of the row: a long argument summary is cut to keep the time. */
	width?: number;
}

export function ToolRow({ run, now, lines, live = false, width }: ToolRowProps) {
	return (
		<Box flexDirection="column">
			<Text wrap="truncate-end">{toolRowHeader(run, now, width)}</Text>
			<StyledLines lines={lines} indent={2} truncate={live} />
		</Box>
	);
}
