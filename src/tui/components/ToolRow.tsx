import { Box, Text } from "ink";
import type { NamedToolPresentation } from "../../core/tool-definition.js";
import { toolRowHeader, toolRowLines } from "../tool-row-text.js";
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
	/** The session's tool presentations; the row's tool draws its lines (a tool not among them, generic lines). */
	tools?: readonly NamedToolPresentation[];
	/** Columns of the row: a long argument summary is cut to keep the time. */
	width?: number;
}

export function ToolRow({ run, now, maxResultLines, live = false, tools = [], width }: ToolRowProps) {
	return (
		<Box flexDirection="column">
			<Text wrap="truncate-end">{toolRowHeader(run, now, width)}</Text>
			<StyledLines lines={toolRowLines(run, maxResultLines, tools)} indent={2} truncate={live} />
		</Box>
	);
}
